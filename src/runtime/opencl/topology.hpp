// Enumeration of OpenCL platforms, root devices and sub-devices through the
// ICD loader, keeping the native handles next to the plain Inventory so that
// later calls can go from a DeviceRef back to a cl_device_id.
#pragma once

#include <mutex>
#include <vector>

#include "runtime/device_model.hpp"
#include "runtime/device_selector.hpp"
#include "runtime/opencl/loader.hpp"
#include "runtime/opencl/usm_entry_points.hpp"

namespace dlpack_usm::runtime::opencl {

struct RootHandles {
  cl_device_id device = nullptr;
  std::int32_t platform_index = 0;
  std::vector<cl_device_id> sub_devices;  // owned: released with the topology
  std::size_t position = 0;               // of its DeviceInfo among its platform's devices
  // The clCreateSubDevices request that makes its sub-devices; empty where
  // the device cannot be partitioned.
  std::vector<cl_device_partition_property> partition;
};

struct PlatformHandles {
  cl_platform_id platform = nullptr;
  UsmEntryPoints usm;
  std::vector<cl_device_id> root_devices;  // those visible after the selector
};

// Sub-devices are made when something first needs them (the inventory, a
// handle, a context), not by the enumeration: making them starts a driver's
// partition machinery (tens of milliseconds for Intel's CPU runtime), which
// list-devices' summary does without.
class Topology {
 public:
  // Enumerates the root devices once. Never throws: a missing loader, no
  // platform or a failing platform becomes a problem in inventory().
  Topology();
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  const LoaderApi* api() const { return api_; }
  // Everything, sub-devices made.
  const Inventory& inventory() const;
  // The root devices, with the sub-devices each partition makes counted
  // rather than made where the count follows from the request (equally,
  // by counts); made where it does not (by affinity domain).
  const Inventory& root_inventory() const;
  const std::vector<PlatformHandles>& platforms() const { return platforms_; }
  // Indexed by root index (the kDLOneAPI device_id).
  const std::vector<RootHandles>& roots() const;

  cl_device_id device_handle(const DeviceRef& ref) const;  // nullptr if unknown
  // The DeviceRef of a device handle the runtime returned (say, the owner of
  // a pointer); nullopt when it is none the topology knows.
  std::optional<DeviceRef> find_ref(cl_device_id device) const;

 private:
  void enumerate();
  void enumerate_platform(cl_platform_id platform, std::int32_t platform_index, int& backend_index,
                          const DeviceSelector* selector);
  DeviceInfo describe_device(cl_device_id device, const std::string& selector_name, DeviceRef ref);
  void plan_sub_devices(DeviceInfo& root_info, RootHandles& root);
  void create_sub_devices(DeviceInfo& root_info, RootHandles& root);
  // Makes every root's sub-devices, once.
  void make_sub_devices() const;
  void warn_about_level_zero();

  const LoaderApi* api_ = nullptr;
  // Completed by make_sub_devices, which the const accessors call: the
  // topology is one enumeration, finished on demand.
  mutable Inventory inventory_;
  std::vector<PlatformHandles> platforms_;
  mutable std::vector<RootHandles> roots_;
  mutable std::once_flag sub_devices_made_;
  bool uncountable_partition_ = false;  // some root partitions by affinity domain
};

}  // namespace dlpack_usm::runtime::opencl
