// Typed wrappers over clGetPlatformInfo / clGetDeviceInfo that turn an
// answer the driver refuses into an empty value instead of an abort: a broken
// driver must show up in the listing, not crash it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/device_model.hpp"
#include "runtime/opencl/loader.hpp"

namespace dlpack_usm::runtime::opencl {

std::optional<std::string> platform_string(const LoaderApi& cl, cl_platform_id platform,
                                           cl_platform_info what, cl_int* status = nullptr);
std::string device_string(const LoaderApi& cl, cl_device_id device, cl_device_info what);
cl_uint device_uint(const LoaderApi& cl, cl_device_id device, cl_device_info what);
std::string device_type_name(const LoaderApi& cl, cl_device_id device);

bool has_extension(const std::string& extension_list, const std::string& extension);

// USM capabilities, or nullopt when the device lacks
// cl_intel_unified_shared_memory.
std::optional<UsmCapabilities> usm_capabilities(const LoaderApi& cl, cl_device_id device);

// CL_DEVICE_PARTITION_PROPERTIES, as cl_device_partition_property values.
std::vector<cl_device_partition_property> partition_properties(const LoaderApi& cl,
                                                               cl_device_id device);
std::string partition_property_name(cl_device_partition_property property);

}  // namespace dlpack_usm::runtime::opencl
