// Plain values describing the devices a runtime can see: what list-devices
// prints and what the exchange uses to turn a device into a kDLOneAPI id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlpack_usm::runtime {

// One capability word of cl_intel_unified_shared_memory
// (CL_UNIFIED_SHARED_MEMORY_*_INTEL bits). OpenCL answers every bit; SYCL's
// aspects express only some of them, and a bit no aspect expresses is
// unknown (nullopt), which is not the same as unsupported.
struct UsmAccess {
  std::optional<bool> access = false;
  std::optional<bool> atomic_access = false;
  std::optional<bool> concurrent_access = false;
  std::optional<bool> concurrent_atomic_access = false;

  // Allocations of this kind are known to be possible.
  bool allows_access() const { return access.value_or(false); }
};

struct UsmCapabilities {
  UsmAccess host;
  UsmAccess device;
  UsmAccess single_device_shared;
  UsmAccess cross_device_shared;
  UsmAccess shared_system;
};

// Identifies a device by position: its root device's index among all root
// devices (the kDLOneAPI device_id) and, for a sub-device, its position among
// the sub-devices the tool created from that root.
struct DeviceRef {
  std::int32_t root_index = 0;
  std::optional<std::int32_t> sub_index;
  friend bool operator==(const DeviceRef&, const DeviceRef&) = default;
};

struct DeviceInfo {
  DeviceRef ref;
  std::string selector_name;       // "opencl:cpu:0", sub-devices "opencl:cpu:0.1"
  std::string backend = "opencl";  // SYCL's backend: level_zero, opencl, cuda, hip
  // SYCL's own filter string for a root device (dpctl's filter_string),
  // which SYCL alone can tell: nullopt on the OpenCL runtime and for
  // sub-devices, which SYCL gives none.
  std::optional<std::string> sycl_filter;
  std::string type;  // "cpu", "gpu", "accelerator", "custom"
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string opencl_version;  // CL_DEVICE_VERSION
  std::uint32_t compute_units = 0;
  // nullopt: the device lacks cl_intel_unified_shared_memory ("no USM").
  std::optional<UsmCapabilities> usm;
  // Root devices only: what CL_DEVICE_PARTITION_PROPERTIES offers, and which
  // of them the tool used to create the sub-devices listed.
  std::vector<std::string> partition_types;
  std::string partition_used;
  std::optional<std::string> partition_error;
  std::vector<DeviceInfo> sub_devices;
  // Root devices of an inventory whose sub-devices were counted, not made
  // (Runtime::root_inventory): how many the partition makes.
  std::optional<std::size_t> counted_sub_devices;

  std::int32_t dlpack_device_id() const { return ref.root_index; }
  std::size_t sub_device_count() const { return counted_sub_devices.value_or(sub_devices.size()); }
};

struct PlatformInfo {
  std::int32_t index = 0;  // position in the ICD loader's list
  std::string name;
  std::string vendor;
  std::string version;
  std::string icd_suffix;
  bool usm_extension = false;        // platform lists cl_intel_unified_shared_memory
  std::vector<DeviceInfo> devices;   // root devices that survived the selector
  std::optional<std::string> error;  // the platform failed to answer
};

// A root device and the platform it belongs to.
struct RootDevice {
  const PlatformInfo& platform;
  const DeviceInfo& device;
};

struct Inventory {
  // The runtime that enumerated: "opencl" or "sycl" (--runtime).
  std::string backend = "opencl";
  // How kDLOneAPI device ids were assigned; see list-devices(1):
  // "opencl-icd" (OpenCL's order, SYCL's only without Level Zero) or
  // "sycl-get-devices" (SYCL's own list, the definition of the id).
  std::string ordering_model = "opencl-icd";
  std::vector<PlatformInfo> platforms;
  std::optional<std::string> selector;  // ONEAPI_DEVICE_SELECTOR when it filtered
  std::vector<std::string> warnings;
  // Problems that make the listing incomplete (exit code 3): no loader, no
  // platform, a platform that errors.
  std::vector<std::string> problems;

  // Every root device with its platform, platform by platform as listed.
  std::vector<RootDevice> roots() const;
  // The name of every root device, each followed by its sub-devices'
  // ("opencl:cpu:0", "opencl:cpu:0.0", ...): what --device takes.
  std::vector<std::string> device_names() const;
  std::int32_t root_device_count() const;
  const DeviceInfo* find(const DeviceRef& ref) const;
  const DeviceInfo* find(const std::string& selector_name) const;
  const PlatformInfo* platform_of(const DeviceRef& ref) const;
};

}  // namespace dlpack_usm::runtime
