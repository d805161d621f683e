// The cl_intel_unified_shared_memory functions of one platform. They are
// extension functions: the ICD loader hands them out per platform through
// clGetExtensionFunctionAddressForPlatform, never as exported symbols.
#pragma once

#include "runtime/opencl/loader.hpp"

namespace dlpack_usm::runtime::opencl {

struct UsmEntryPoints {
  clHostMemAllocINTEL_fn host_alloc = nullptr;
  clDeviceMemAllocINTEL_fn device_alloc = nullptr;
  clSharedMemAllocINTEL_fn shared_alloc = nullptr;
  clMemBlockingFreeINTEL_fn blocking_free = nullptr;
  clGetMemAllocInfoINTEL_fn get_alloc_info = nullptr;
  clEnqueueMemcpyINTEL_fn enqueue_memcpy = nullptr;
  // Only the stream case's control needs it (late_write.hpp).
  clEnqueueMemFillINTEL_fn enqueue_mem_fill = nullptr;

  // All present: the platform can take part in the exchange.
  bool complete() const {
    return host_alloc && device_alloc && shared_alloc && blocking_free && get_alloc_info &&
           enqueue_memcpy;
  }
};

UsmEntryPoints load_usm_entry_points(const LoaderApi& cl, cl_platform_id platform);

}  // namespace dlpack_usm::runtime::opencl
