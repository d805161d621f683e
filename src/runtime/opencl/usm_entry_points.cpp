#include "runtime/opencl/usm_entry_points.hpp"

namespace dlpack_usm::runtime::opencl {
namespace {

template <typename Fn>
void resolve(const LoaderApi& cl, cl_platform_id platform, const char* name, Fn& slot) {
  slot = reinterpret_cast<Fn>(cl.clGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

UsmEntryPoints load_usm_entry_points(const LoaderApi& cl, cl_platform_id platform) {
  UsmEntryPoints usm;
  resolve(cl, platform, "clHostMemAllocINTEL", usm.host_alloc);
  resolve(cl, platform, "clDeviceMemAllocINTEL", usm.device_alloc);
  resolve(cl, platform, "clSharedMemAllocINTEL", usm.shared_alloc);
  resolve(cl, platform, "clMemBlockingFreeINTEL", usm.blocking_free);
  resolve(cl, platform, "clGetMemAllocInfoINTEL", usm.get_alloc_info);
  resolve(cl, platform, "clEnqueueMemcpyINTEL", usm.enqueue_memcpy);
  resolve(cl, platform, "clEnqueueMemFillINTEL", usm.enqueue_mem_fill);
  return usm;
}

}  // namespace dlpack_usm::runtime::opencl
