// The OpenCL ICD loader, opened at run time. Linking libOpenCL directly would
// make a machine without a loader fail before main() with a dynamic-linker
// message; opening it here turns that into the tool's environment error.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string>

namespace dlpack_usm::runtime::opencl {

// The core entry points the tool calls; names match the OpenCL API.
struct LoaderApi {
  decltype(&::clGetPlatformIDs) clGetPlatformIDs;
  decltype(&::clGetPlatformInfo) clGetPlatformInfo;
  decltype(&::clGetDeviceIDs) clGetDeviceIDs;
  decltype(&::clGetDeviceInfo) clGetDeviceInfo;
  decltype(&::clCreateSubDevices) clCreateSubDevices;
  decltype(&::clRetainDevice) clRetainDevice;
  decltype(&::clReleaseDevice) clReleaseDevice;
  decltype(&::clCreateContext) clCreateContext;
  decltype(&::clRetainContext) clRetainContext;
  decltype(&::clReleaseContext) clReleaseContext;
  decltype(&::clCreateCommandQueueWithProperties) clCreateCommandQueueWithProperties;
  decltype(&::clReleaseCommandQueue) clReleaseCommandQueue;
  decltype(&::clFinish) clFinish;
  decltype(&::clFlush) clFlush;
  decltype(&::clEnqueueBarrierWithWaitList) clEnqueueBarrierWithWaitList;
  decltype(&::clWaitForEvents) clWaitForEvents;
  decltype(&::clReleaseEvent) clReleaseEvent;
  decltype(&::clGetExtensionFunctionAddressForPlatform) clGetExtensionFunctionAddressForPlatform;
};

// Opens the loader once per process. The library is `libOpenCL.so.1`, or the
// file DLPACK_USM_OPENCL_LOADER names. Returns nullptr and fills `why` when it
// cannot be opened or lacks an entry point.
const LoaderApi* load_loader(std::string* why);

// "CL_INVALID_VALUE (-30)".
std::string error_name(cl_int code);

}  // namespace dlpack_usm::runtime::opencl
