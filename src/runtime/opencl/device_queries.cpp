#include "runtime/opencl/device_queries.hpp"

#include <sstream>

namespace dlpack_usm::runtime::opencl {
namespace {

UsmAccess decode_access(cl_device_unified_shared_memory_capabilities_intel bits) {
  return UsmAccess{
      (bits & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL) != 0,
      (bits & CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL) != 0,
      (bits & CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL) != 0,
      (bits & CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL) != 0,
  };
}

UsmAccess usm_access(const LoaderApi& cl, cl_device_id device, cl_device_info what) {
  cl_device_unified_shared_memory_capabilities_intel bits = 0;
  if (cl.clGetDeviceInfo(device, what, sizeof(bits), &bits, nullptr) != CL_SUCCESS) return {};
  return decode_access(bits);
}

// Drivers include the terminating NUL in the size; some add padding.
std::string trim_nul(std::string text) {
  std::size_t end = text.find('\0');
  if (end != std::string::npos) text.resize(end);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

std::optional<std::string> platform_string(const LoaderApi& cl, cl_platform_id platform,
                                           cl_platform_info what, cl_int* status) {
  std::size_t size = 0;
  cl_int result = cl.clGetPlatformInfo(platform, what, 0, nullptr, &size);
  std::string text(size, '\0');
  if (result == CL_SUCCESS && size > 0) {
    result = cl.clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  }
  if (status != nullptr) *status = result;
  if (result != CL_SUCCESS) return std::nullopt;
  return trim_nul(std::move(text));
}

std::string device_string(const LoaderApi& cl, cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (cl.clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (cl.clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return {};
  return trim_nul(std::move(text));
}

cl_uint device_uint(const LoaderApi& cl, cl_device_id device, cl_device_info what) {
  cl_uint value = 0;
  if (cl.clGetDeviceInfo(device, what, sizeof(value), &value, nullptr) != CL_SUCCESS) return 0;
  return value;
}

std::string device_type_name(const LoaderApi& cl, cl_device_id device) {
  cl_device_type type = 0;
  cl.clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr);
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "custom";
}

bool has_extension(const std::string& extension_list, const std::string& extension) {
  std::istringstream words(extension_list);
  std::string word;
  while (words >> word) {
    if (word == extension) return true;
  }
  return false;
}

std::optional<UsmCapabilities> usm_capabilities(const LoaderApi& cl, cl_device_id device) {
  if (!has_extension(device_string(cl, device, CL_DEVICE_EXTENSIONS),
                     "cl_intel_unified_shared_memory")) {
    return std::nullopt;
  }
  return UsmCapabilities{
      usm_access(cl, device, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL),
      usm_access(cl, device, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL),
      usm_access(cl, device, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL),
      usm_access(cl, device, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL),
      usm_access(cl, device, CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL),
  };
}

std::vector<cl_device_partition_property> partition_properties(const LoaderApi& cl,
                                                               cl_device_id device) {
  std::size_t size = 0;
  if (cl.clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &size) != CL_SUCCESS ||
      size == 0) {
    return {};
  }
  std::vector<cl_device_partition_property> properties(size / sizeof(cl_device_partition_property));
  if (cl.clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, size, properties.data(),
                         nullptr) != CL_SUCCESS) {
    return {};
  }
  // A device that cannot be partitioned answers a single 0.
  std::erase(properties, cl_device_partition_property{0});
  return properties;
}

std::string partition_property_name(cl_device_partition_property property) {
  switch (property) {
    case CL_DEVICE_PARTITION_EQUALLY:
      return "equally";
    case CL_DEVICE_PARTITION_BY_COUNTS:
      return "by_counts";
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      return "by_affinity_domain";
    case 0x4052:  // CL_DEVICE_PARTITION_BY_NAMES_INTEL
      return "by_names_intel";
    default:
      return "property_" + std::to_string(property);
  }
}

}  // namespace dlpack_usm::runtime::opencl
