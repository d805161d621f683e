#include "runtime/cuda/driver_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <utility>

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

// Binds every (name, slot) pair, stopping at the first missing entry point.
template <typename... Fn>
bool bind_cuda_entries(void* library, std::string& why, std::pair<const char*, Fn*>... entries) {
  return (bind_cuda_entry(library, entries.first, *entries.second, why) && ...);
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
  result.ok =
      bind_cuda_entries(library, result.why, std::pair{"cuInit", &api.cuInit},
                        std::pair{"cuDriverGetVersion", &api.cuDriverGetVersion},
                        std::pair{"cuGetErrorName", &api.cuGetErrorName},
                        std::pair{"cuDeviceGetCount", &api.cuDeviceGetCount},
                        std::pair{"cuDeviceGet", &api.cuDeviceGet},
                        std::pair{"cuDeviceGetName", &api.cuDeviceGetName},
                        std::pair{"cuDeviceGetAttribute", &api.cuDeviceGetAttribute},
                        std::pair{"cuDeviceGetPCIBusId", &api.cuDeviceGetPCIBusId},
                        std::pair{"cuDeviceTotalMem_v2", &api.cuDeviceTotalMem},
                        std::pair{"cuPointerGetAttributes", &api.cuPointerGetAttributes},
                        std::pair{"cuMemGetAddressRange_v2", &api.cuMemGetAddressRange},
                        std::pair{"cuDevicePrimaryCtxRetain", &api.cuDevicePrimaryCtxRetain},
                        std::pair{"cuDevicePrimaryCtxRelease_v2", &api.cuDevicePrimaryCtxRelease},
                        std::pair{"cuCtxPushCurrent_v2", &api.cuCtxPushCurrent},
                        std::pair{"cuCtxPopCurrent_v2", &api.cuCtxPopCurrent},
                        std::pair{"cuStreamCreate", &api.cuStreamCreate},
                        std::pair{"cuStreamDestroy_v2", &api.cuStreamDestroy},
                        std::pair{"cuMemcpyDtoHAsync_v2", &api.cuMemcpyDtoHAsync},
                        std::pair{"cuStreamSynchronize", &api.cuStreamSynchronize},
                        std::pair{"cuCtxSynchronize", &api.cuCtxSynchronize},
                        std::pair{"cuStreamGetCtx", &api.cuStreamGetCtx},
                        std::pair{"cuCtxGetDevice", &api.cuCtxGetDevice});
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
