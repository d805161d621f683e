// SYCL's devices as dpctl's C interface lists them: root devices in
// sycl::device::get_devices() order (their position is the kDLOneAPI
// device_id), grouped by platform, with sub-devices made by partition. The
// dpctl references are kept next to the plain Inventory so that later calls
// can go from a runtime::DeviceRef back to a sycl::device*.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/device_model.hpp"
#include "runtime/sycl/dpctl_api.hpp"

namespace dlpack_usm::runtime::sycl {

struct SyclRoot {
  SyclDeviceRef device = nullptr;
  std::int32_t platform_index = 0;
  std::vector<SyclDeviceRef> sub_devices;
  std::size_t position = 0;      // of its DeviceInfo among its platform's devices
  std::uint32_t units_each = 0;  // partition_equally's argument; 0: no partition
};

// As on OpenCL (runtime/opencl/topology.hpp), sub-devices are made when
// something first needs them, not by the enumeration.
class SyclTopology {
 public:
  // Enumerates the root devices once. Never throws: a failure lands in
  // inventory().problems.
  explicit SyclTopology(const DpctlApi& api, const DpctlLibrary& library);
  SyclTopology(const SyclTopology&) = delete;
  SyclTopology& operator=(const SyclTopology&) = delete;

  // Everything, sub-devices made.
  const Inventory& inventory() const;
  // The root devices, with the sub-devices partition_equally makes counted
  // (SYCL's rule: as many as hold the units each) rather than made.
  const Inventory& root_inventory() const { return inventory_; }
  const std::vector<SyclPlatformRef>& platforms() const { return platforms_; }
  const std::vector<SyclRoot>& roots() const;

  SyclDeviceRef device_handle(const runtime::DeviceRef& ref) const;  // nullptr if unknown
  // Which enumerated device `device` is (compared with sycl::device ==).
  std::optional<runtime::DeviceRef> find_ref(SyclDeviceRef device) const;

 private:
  void enumerate();
  std::int32_t platform_index_of(SyclDeviceRef device);
  DeviceInfo describe_device(SyclDeviceRef device, const std::string& selector_name,
                             runtime::DeviceRef ref);
  void plan_sub_devices(DeviceInfo& root_info, SyclRoot& root);
  void create_sub_devices(DeviceInfo& root_info, SyclRoot& root);
  // Makes every root's sub-devices, once.
  void make_sub_devices() const;

  const DpctlApi& api_;
  // Completed by make_sub_devices, which the const accessors call.
  mutable Inventory inventory_;
  std::vector<SyclPlatformRef> platforms_;
  mutable std::vector<SyclRoot> roots_;
  mutable std::once_flag sub_devices_made_;
};

// "level_zero", "opencl", "cuda", "hip" or "unknown".
std::string backend_name(int backend);

}  // namespace dlpack_usm::runtime::sycl
