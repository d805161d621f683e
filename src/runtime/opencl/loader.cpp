#include "runtime/opencl/loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include <fmt/format.h>

namespace dlpack_usm::runtime::opencl {
namespace {

struct LoadResult {
  LoaderApi api{};
  bool ok = false;
  std::string why;
};

template <typename Fn>
bool bind(void* library, const char* name, Fn& slot, std::string& why) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (slot == nullptr) why = fmt::format("the OpenCL loader has no entry point {}", name);
  return slot != nullptr;
}

LoadResult open_loader() {
  LoadResult result;
  const char* override_path = std::getenv("DLPACK_USM_OPENCL_LOADER");
  const char* path = override_path != nullptr && *override_path ? override_path : "libOpenCL.so.1";
  // Kept open for the life of the process: OpenCL drivers start threads that
  // would outlive an unloaded library.
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    result.why = fmt::format("cannot open the OpenCL ICD loader {}: {}", path,
                             reason != nullptr ? reason : "unknown reason");
    return result;
  }
  LoaderApi& api = result.api;
  result.ok =
      bind(library, "clGetPlatformIDs", api.clGetPlatformIDs, result.why) &&
      bind(library, "clGetPlatformInfo", api.clGetPlatformInfo, result.why) &&
      bind(library, "clGetDeviceIDs", api.clGetDeviceIDs, result.why) &&
      bind(library, "clGetDeviceInfo", api.clGetDeviceInfo, result.why) &&
      bind(library, "clCreateSubDevices", api.clCreateSubDevices, result.why) &&
      bind(library, "clRetainDevice", api.clRetainDevice, result.why) &&
      bind(library, "clReleaseDevice", api.clReleaseDevice, result.why) &&
      bind(library, "clCreateContext", api.clCreateContext, result.why) &&
      bind(library, "clRetainContext", api.clRetainContext, result.why) &&
      bind(library, "clReleaseContext", api.clReleaseContext, result.why) &&
      bind(library, "clCreateCommandQueueWithProperties", api.clCreateCommandQueueWithProperties,
           result.why) &&
      bind(library, "clReleaseCommandQueue", api.clReleaseCommandQueue, result.why) &&
      bind(library, "clFinish", api.clFinish, result.why) &&
      bind(library, "clFlush", api.clFlush, result.why) &&
      bind(library, "clEnqueueBarrierWithWaitList", api.clEnqueueBarrierWithWaitList, result.why) &&
      bind(library, "clWaitForEvents", api.clWaitForEvents, result.why) &&
      bind(library, "clReleaseEvent", api.clReleaseEvent, result.why) &&
      bind(library, "clGetExtensionFunctionAddressForPlatform",
           api.clGetExtensionFunctionAddressForPlatform, result.why);
  return result;
}

}  // namespace

const LoaderApi* load_loader(std::string* why) {
  static const LoadResult loaded = open_loader();
  if (!loaded.ok && why != nullptr) *why = loaded.why;
  return loaded.ok ? &loaded.api : nullptr;
}

std::string error_name(cl_int code) {
  const char* name = nullptr;
  switch (code) {
    case CL_SUCCESS:
      name = "CL_SUCCESS";
      break;
    case CL_DEVICE_NOT_FOUND:
      name = "CL_DEVICE_NOT_FOUND";
      break;
    case CL_DEVICE_NOT_AVAILABLE:
      name = "CL_DEVICE_NOT_AVAILABLE";
      break;
    case CL_OUT_OF_RESOURCES:
      name = "CL_OUT_OF_RESOURCES";
      break;
    case CL_OUT_OF_HOST_MEMORY:
      name = "CL_OUT_OF_HOST_MEMORY";
      break;
    case CL_INVALID_VALUE:
      name = "CL_INVALID_VALUE";
      break;
    case CL_INVALID_PLATFORM:
      name = "CL_INVALID_PLATFORM";
      break;
    case CL_INVALID_DEVICE:
      name = "CL_INVALID_DEVICE";
      break;
    case CL_INVALID_CONTEXT:
      name = "CL_INVALID_CONTEXT";
      break;
    case CL_INVALID_COMMAND_QUEUE:
      name = "CL_INVALID_COMMAND_QUEUE";
      break;
    case CL_INVALID_MEM_OBJECT:
      name = "CL_INVALID_MEM_OBJECT";
      break;
    case CL_INVALID_OPERATION:
      name = "CL_INVALID_OPERATION";
      break;
    case CL_INVALID_BUFFER_SIZE:
      name = "CL_INVALID_BUFFER_SIZE";
      break;
    case CL_INVALID_PROPERTY:
      name = "CL_INVALID_PROPERTY";
      break;
    case CL_DEVICE_PARTITION_FAILED:
      name = "CL_DEVICE_PARTITION_FAILED";
      break;
    case CL_INVALID_DEVICE_PARTITION_COUNT:
      name = "CL_INVALID_DEVICE_PARTITION_COUNT";
      break;
    case -1001:
      name = "CL_PLATFORM_NOT_FOUND_KHR";
      break;
    default:
      break;
  }
  return name != nullptr ? fmt::format("{} ({})", name, code)
                         : fmt::format("OpenCL error {}", code);
}

}  // namespace dlpack_usm::runtime::opencl
