// SYCL's devices as dpctl's C interface lists them: root devices in
// sycl::device::get_devices() order (their position is the kDLOneAPI
// device_id), grouped by platform, with sub-devices made by partition. The
// dpctl references are kept next to the plain Inventory so that later calls
// can go from a runtime::DeviceRef back to a sycl::device*.
#pragma once

#include <vector>

#include "runtime/device_model.hpp"
#include "runtime/sycl/dpctl_api.hpp"

namespace dlpack_usm::runtime::sycl {

struct SyclRoot {
  SyclDeviceRef device = nullptr;
  std::int32_t platform_index = 0;
  std::vector<SyclDeviceRef> sub_devices;
};

class SyclTopology {
 public:
  // Enumerates once. Never throws: a failure lands in inventory().problems.
  explicit SyclTopology(const DpctlApi& api, const DpctlLibrary& library);
  SyclTopology(const SyclTopology&) = delete;
  SyclTopology& operator=(const SyclTopology&) = delete;

  const Inventory& inventory() const { return inventory_; }
  const std::vector<SyclPlatformRef>& platforms() const { return platforms_; }
  const std::vector<SyclRoot>& roots() const { return roots_; }

  SyclDeviceRef device_handle(const runtime::DeviceRef& ref) const;  // nullptr if unknown
  // Which enumerated device `device` is (compared with sycl::device ==).
  std::optional<runtime::DeviceRef> find_ref(SyclDeviceRef device) const;

 private:
  void enumerate();
  std::int32_t platform_index_of(SyclDeviceRef device);
  DeviceInfo describe_device(SyclDeviceRef device, const std::string& selector_name,
                             runtime::DeviceRef ref);
  void create_sub_devices(DeviceInfo& root_info, SyclRoot& root);

  const DpctlApi& api_;
  Inventory inventory_;
  std::vector<SyclPlatformRef> platforms_;
  std::vector<SyclRoot> roots_;
};

// "level_zero", "opencl", "cuda", "hip" or "unknown".
std::string backend_name(int backend);

}  // namespace dlpack_usm::runtime::sycl
