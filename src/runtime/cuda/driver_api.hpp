// The CUDA driver API (libcuda.so.1), opened at run time: the tool builds
// without a CUDA toolkit and runs unchanged where no NVIDIA driver is
// installed. The few types and values below are written from the driver
// API's public documentation (cuda.h is not needed, nor copied).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlpack_usm::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = std::uint64_t;  // unsigned long long on every 64-bit platform
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;

inline constexpr CUresult kSuccess = 0;          // CUDA_SUCCESS
inline constexpr CUresult kErrorNoDevice = 100;  // CUDA_ERROR_NO_DEVICE

// CUpointer_attribute values the tool asks for.
enum PointerAttribute : unsigned {
  kPointerMemoryType = 2,       // CU_POINTER_ATTRIBUTE_MEMORY_TYPE (CUmemorytype)
  kPointerIsManaged = 8,        // CU_POINTER_ATTRIBUTE_IS_MANAGED
  kPointerDeviceOrdinal = 9,    // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL (int)
  kPointerRangeStartAddr = 11,  // CU_POINTER_ATTRIBUTE_RANGE_START_ADDR (CUdeviceptr)
  kPointerRangeSize = 12,       // CU_POINTER_ATTRIBUTE_RANGE_SIZE (size_t)
};

// CUmemorytype; 0 is what cuPointerGetAttributes leaves for a pointer the
// driver does not know.
enum MemoryType : unsigned {
  kMemoryUnknown = 0,
  kMemoryHost = 1,     // CU_MEMORYTYPE_HOST
  kMemoryDevice = 2,   // CU_MEMORYTYPE_DEVICE
  kMemoryArray = 3,    // CU_MEMORYTYPE_ARRAY
  kMemoryUnified = 4,  // CU_MEMORYTYPE_UNIFIED
};

// CUdevice_attribute values list-devices shows.
enum DeviceAttribute : int {
  kAttributePciBusId = 33,           // CU_DEVICE_ATTRIBUTE_PCI_BUS_ID
  kAttributeUnifiedAddressing = 41,  // CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING
  kAttributeComputeCapabilityMajor = 75,
  kAttributeComputeCapabilityMinor = 76,
  kAttributeManagedMemory = 83,  // CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY
  kAttributeConcurrentManagedAccess = 89,
};

// The entry points the tool calls; names are the driver's (versioned
// symbols where the driver exports the call under a _v2 name).
struct DriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceGetPCIBusId)(char* bus_id, int length, CUdevice device);
  CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device);  // cuDeviceTotalMem_v2
  CUresult (*cuPointerGetAttributes)(unsigned count, unsigned* attributes, void** data,
                                     CUdeviceptr pointer);
  CUresult (*cuMemGetAddressRange)(CUdeviceptr* base, std::size_t* size,
                                   CUdeviceptr pointer);  // cuMemGetAddressRange_v2
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);  // cuDevicePrimaryCtxRelease_v2
  CUresult (*cuCtxPushCurrent)(CUcontext context);         // cuCtxPushCurrent_v2
  CUresult (*cuCtxPopCurrent)(CUcontext* context);         // cuCtxPopCurrent_v2
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);  // cuStreamDestroy_v2
  // The stream checks: a read on a consumer's stream, and the device idle.
  CUresult (*cuMemcpyDtoHAsync)(void* destination, CUdeviceptr source, std::size_t bytes,
                                CUstream stream);  // cuMemcpyDtoHAsync_v2
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuStreamGetCtx)(CUstream stream, CUcontext* context);
  CUresult (*cuCtxGetDevice)(CUdevice* device);
};

// CU_STREAM_NON_BLOCKING: a stream that does not wait for the legacy
// default stream, so that only what is put on it orders its work.
inline constexpr unsigned kStreamNonBlocking = 0x1;

// The library the tool opens: DLPACK_USM_CUDA_DRIVER when set (a path), else
// "libcuda.so.1" as the dynamic linker finds it.
std::string driver_library_name();

// Opens the driver once per process. Returns nullptr and fills `why` when
// it cannot be opened or lacks an entry point.
const DriverApi* load_driver(std::string* why);

// "CUDA_ERROR_INVALID_VALUE (1)", or "CUDA error 1" when the driver has no name.
std::string error_name(const DriverApi& api, CUresult code);

}  // namespace dlpack_usm::runtime::cuda
