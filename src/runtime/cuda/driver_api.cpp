#include "runtime/cuda/driver_api.hpp"

#include <dlfcn.h>

#include <cstdlib>

#include <fmt/format.h>

namespace dlpack_usm::runtime::cuda {
namespace {

struct CudaDriverLoad {
  DriverApi api{};
  bool ok = false;
  std::string why;
};

template <typename Fn>
bool bind_cuda_entry(void* library, const char* name, Fn& slot, std::string& why) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (slot == nullptr) {
    why = fmt::format("the CUDA driver {} has no entry point {} (a driver older than CUDA 10.2?)",
                      driver_library_name(), name);
  }
  return slot != nullptr;
}

CudaDriverLoad open_cuda_driver() {
  CudaDriverLoad result;
  std::string path = driver_library_name();
  // Kept open for the life of the process: the driver starts threads, and the
  // producers in the same process (torch, cupy, jax) hold it open anyway.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    result.why = fmt::format("cannot open the CUDA driver {}: {}", path,
                             reason != nullptr ? reason : "unknown reason");
    return result;
  }
  DriverApi& api = result.api;
  std::string& why = result.why;
  result.ok = bind_cuda_entry(library, "cuInit", api.cuInit, why) &&
              bind_cuda_entry(library, "cuDriverGetVersion", api.cuDriverGetVersion, why) &&
              bind_cuda_entry(library, "cuGetErrorName", api.cuGetErrorName, why) &&
              bind_cuda_entry(library, "cuDeviceGetCount", api.cuDeviceGetCount, why) &&
              bind_cuda_entry(library, "cuDeviceGet", api.cuDeviceGet, why) &&
              bind_cuda_entry(library, "cuDeviceGetName", api.cuDeviceGetName, why) &&
              bind_cuda_entry(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute, why) &&
              bind_cuda_entry(library, "cuDeviceGetPCIBusId", api.cuDeviceGetPCIBusId, why) &&
              bind_cuda_entry(library, "cuDeviceTotalMem_v2", api.cuDeviceTotalMem, why) &&
              bind_cuda_entry(library, "cuPointerGetAttributes", api.cuPointerGetAttributes, why) &&
              bind_cuda_entry(library, "cuMemGetAddressRange_v2", api.cuMemGetAddressRange, why) &&
              bind_cuda_entry(library, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain,
                         why) &&
              bind_cuda_entry(library, "cuDevicePrimaryCtxRelease_v2", api.cuDevicePrimaryCtxRelease,
                         why) &&
              bind_cuda_entry(library, "cuCtxPushCurrent_v2", api.cuCtxPushCurrent, why) &&
              bind_cuda_entry(library, "cuCtxPopCurrent_v2", api.cuCtxPopCurrent, why) &&
              bind_cuda_entry(library, "cuStreamCreate", api.cuStreamCreate, why) &&
              bind_cuda_entry(library, "cuStreamDestroy_v2", api.cuStreamDestroy, why);
  return result;
}

}  // namespace

std::string driver_library_name() {
  const char* override_path = std::getenv("DLPACK_USM_CUDA_DRIVER");
  return override_path != nullptr && *override_path ? override_path : "libcuda.so.1";
}

const DriverApi* load_driver(std::string* why) {
  static const CudaDriverLoad loaded = open_cuda_driver();
  if (!loaded.ok && why != nullptr) *why = loaded.why;
  return loaded.ok ? &loaded.api : nullptr;
}

std::string error_name(const DriverApi& api, CUresult code) {
  const char* name = nullptr;
  if (api.cuGetErrorName(code, &name) == kSuccess && name != nullptr) {
    return fmt::format("{} ({})", name, code);
  }
  return fmt::format("CUDA error {}", code);
}

}  // namespace dlpack_usm::runtime::cuda
