// Enumeration of OpenCL platforms, root devices and sub-devices through the
// ICD loader, keeping the native handles next to the plain Inventory so that
// later calls can go from a DeviceRef back to a cl_device_id.
#pragma once

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
};

struct PlatformHandles {
  cl_platform_id platform = nullptr;
  UsmEntryPoints usm;
  std::vector<cl_device_id> root_devices;  // those visible after the selector
};

class Topology {
 public:
  // Enumerates everything once. Never throws: a missing loader, no platform
  // or a failing platform becomes a problem in inventory().
  Topology();
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  const LoaderApi* api() const { return api_; }
  const Inventory& inventory() const { return inventory_; }
  const std::vector<PlatformHandles>& platforms() const { return platforms_; }
  // Indexed by root index (the kDLOneAPI device_id).
  const std::vector<RootHandles>& roots() const { return roots_; }

  cl_device_id device_handle(const DeviceRef& ref) const;  // nullptr if unknown
  // The DeviceRef of a device handle the runtime returned (say, the owner of
  // a pointer); nullopt when it is none the topology knows.
  std::optional<DeviceRef> find_ref(cl_device_id device) const;

 private:
  void enumerate();
  void enumerate_platform(cl_platform_id platform, std::int32_t platform_index, int& backend_index,
                          const DeviceSelector* selector);
  DeviceInfo describe_device(cl_device_id device, const std::string& selector_name, DeviceRef ref);
  void create_sub_devices(DeviceInfo& root_info, RootHandles& root);
  void warn_about_level_zero();

  const LoaderApi* api_ = nullptr;
  Inventory inventory_;
  std::vector<PlatformHandles> platforms_;
  std::vector<RootHandles> roots_;
};

}  // namespace dlpack_usm::runtime::opencl
