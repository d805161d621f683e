// How an OpenCL runtime answers clGetMemAllocInfoINTEL where implementations
// measurably differ. The live tests assert the answer each runtime is known
// to give, so a runtime that changes its behaviour fails a test and gets
// looked at, instead of being waved through by a test that accepts anything.
#pragma once

#include <optional>

#include "runtime/runtime.hpp"

namespace dlpack_usm::testing {

struct AllocationReporting {
  // CL_MEM_ALLOC_DEVICE_INTEL of an allocation made on a sub-device names
  // the sub-device (Intel's CPU runtime), not its parent root (PoCL 5.0).
  bool names_sub_device_owner = true;
  // Host allocations report no device (Intel) or the context's first device (PoCL 5.0).
  bool host_allocations_have_owner = false;
  // A context answers "unknown" for allocations of another context (Intel);
  // PoCL 5.0 answers their kind whatever context is asked.
  bool queries_scoped_to_context = true;
};

// Measured on the GPU machine (PoCL 5.0+debian) and on Intel's CPU runtime 2026.2.
inline AllocationReporting allocation_reporting(const runtime::DeviceRef& device) {
  const runtime::PlatformInfo* platform = runtime::opencl_runtime().inventory().platform_of(device);
  if (platform != nullptr && platform->name == "Portable Computing Language") {
    return AllocationReporting{false, true, false};
  }
  return AllocationReporting{};
}

// The owner a runtime reports for an allocation of `kind` made on `device`.
inline std::optional<runtime::DeviceRef> expected_owner(const runtime::DeviceRef& device,
                                                        facts::UsmKind kind) {
  AllocationReporting reporting = allocation_reporting(device);
  runtime::DeviceRef root{device.root_index, std::nullopt};
  if (kind == facts::UsmKind::host) {
    if (!reporting.host_allocations_have_owner) return std::nullopt;
    const runtime::PlatformInfo* platform =
        runtime::opencl_runtime().inventory().platform_of(device);
    return platform->devices.front().ref;
  }
  return reporting.names_sub_device_owner ? device : root;
}

}  // namespace dlpack_usm::testing
