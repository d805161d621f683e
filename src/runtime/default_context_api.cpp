// The C face of Runtime::default_context(). Nothing may throw across it.
#include "runtime/default_context_api.h"

#include "runtime/runtime.hpp"

extern "C" void* dlpack_usm_default_context(int32_t device_id) {
  using namespace dlpack_usm::runtime;
  try {
    Runtime& runtime = opencl_runtime();
    const PlatformInfo* platform = runtime.inventory().platform_of(DeviceRef{device_id, {}});
    if (platform == nullptr) return nullptr;
    return runtime.default_context(platform->index).handle;
  } catch (...) {
    return nullptr;
  }
}

extern "C" int32_t dlpack_usm_root_device_count(void) {
  try {
    return dlpack_usm::runtime::opencl_runtime().inventory().root_device_count();
  } catch (...) {
    return 0;
  }
}

extern "C" const DlpackUsmHostApi* dlpack_usm_host_api(void) {
  static const DlpackUsmHostApi api{sizeof(DlpackUsmHostApi), DLPACK_USM_HOST_API_VERSION,
                                    dlpack_usm_default_context, dlpack_usm_root_device_count};
  return &api;
}
