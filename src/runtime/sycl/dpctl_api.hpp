// dpctl's C interface (libDPCTLSyclInterface.so), opened at run time. The
// tool declares the few prototypes it calls itself instead of including
// dpctl's headers, so that building it never needs dpctl: the C ABI is
// stable, and load_dpctl() refuses a library whose version or entry points
// do not match what is declared here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dlpack_usm::runtime::sycl {

// dpctl's opaque references are pointers to the SYCL objects themselves
// (a DPCTLSyclContextRef is a sycl::context*), which is what lets SYCL code
// and the tool share them.
using SyclDeviceRef = struct OpaqueSyclDevice*;
using SyclContextRef = struct OpaqueSyclContext*;
using SyclPlatformRef = struct OpaqueSyclPlatform*;
using SyclQueueRef = struct OpaqueSyclQueue*;
using SyclEventRef = struct OpaqueSyclEvent*;
using SyclDeviceVectorRef = struct OpaqueDeviceVector*;
using ErrorHandler = void(int);

// DPCTLSyclBackendType, DPCTLSyclDeviceType, DPCTLSyclUSMType and the
// aspects of DPCTLSyclAspectType the tool asks about
// (syclinterface/dpctl_sycl_enum_types.h).
inline constexpr int kBackendCuda = 1 << 16;
inline constexpr int kBackendLevelZero = 1 << 17;
inline constexpr int kBackendOpenCl = 1 << 18;
inline constexpr int kBackendHip = 1 << 19;
inline constexpr int kAllBackends = ((1 << 5) - 1) << 16;
inline constexpr int kDeviceAccelerator = 1 << 0;
inline constexpr int kDeviceCpu = 1 << 2;
inline constexpr int kDeviceCustom = 1 << 3;
inline constexpr int kDeviceGpu = 1 << 4;
inline constexpr int kAllDeviceTypes = (1 << 6) - 1;
// DPCTLQueuePropertyType's DPCTL_IN_ORDER: commands run in submission order.
inline constexpr int kDpctlQueueInOrder = 2;

enum UsmType : int { kUsmUnknown = 0, kUsmDevice = 1, kUsmShared = 2, kUsmHost = 3 };
enum Aspect : int {
  kAspectUsmDeviceAllocations = 12,
  kAspectUsmHostAllocations = 13,
  kAspectUsmSharedAllocations = 14,
  kAspectUsmSystemAllocations = 15,
  kAspectUsmAtomicHostAllocations = 16,
  kAspectUsmAtomicSharedAllocations = 17,
};

struct DpctlApi {
  SyclDeviceVectorRef (*DPCTLDeviceMgr_GetDevices)(int);
  int (*DPCTLDeviceMgr_GetPositionInDevices)(SyclDeviceRef, int);
  std::int64_t (*DPCTLDeviceMgr_GetRelativeId)(SyclDeviceRef);
  std::size_t (*DPCTLDeviceVector_Size)(SyclDeviceVectorRef);
  SyclDeviceRef (*DPCTLDeviceVector_GetAt)(SyclDeviceVectorRef, std::size_t);
  void (*DPCTLDeviceVector_Delete)(SyclDeviceVectorRef);
  void (*DPCTLDevice_Delete)(SyclDeviceRef);
  bool (*DPCTLDevice_AreEq)(SyclDeviceRef, SyclDeviceRef);
  int (*DPCTLDevice_GetBackend)(SyclDeviceRef);
  int (*DPCTLDevice_GetDeviceType)(SyclDeviceRef);
  const char* (*DPCTLDevice_GetName)(SyclDeviceRef);
  const char* (*DPCTLDevice_GetVendor)(SyclDeviceRef);
  const char* (*DPCTLDevice_GetDriverVersion)(SyclDeviceRef);
  std::uint32_t (*DPCTLDevice_GetMaxComputeUnits)(SyclDeviceRef);
  std::uint32_t (*DPCTLDevice_GetPartitionMaxSubDevices)(SyclDeviceRef);
  bool (*DPCTLDevice_HasAspect)(SyclDeviceRef, int);
  SyclPlatformRef (*DPCTLDevice_GetPlatform)(SyclDeviceRef);
  SyclDeviceVectorRef (*DPCTLDevice_CreateSubDevicesEqually)(SyclDeviceRef, std::size_t);
  SyclDeviceRef (*DPCTLDevice_GetParentDevice)(SyclDeviceRef);
  void (*DPCTLPlatform_Delete)(SyclPlatformRef);
  bool (*DPCTLPlatform_AreEq)(SyclPlatformRef, SyclPlatformRef);
  const char* (*DPCTLPlatform_GetName)(SyclPlatformRef);
  const char* (*DPCTLPlatform_GetVendor)(SyclPlatformRef);
  const char* (*DPCTLPlatform_GetVersion)(SyclPlatformRef);
  SyclContextRef (*DPCTLPlatform_GetDefaultContext)(SyclPlatformRef);
  SyclContextRef (*DPCTLContext_Create)(SyclDeviceRef, ErrorHandler*, int);
  void (*DPCTLContext_Delete)(SyclContextRef);
  SyclQueueRef (*DPCTLQueue_Create)(SyclContextRef, SyclDeviceRef, ErrorHandler*, int);
  void (*DPCTLQueue_Delete)(SyclQueueRef);
  SyclEventRef (*DPCTLQueue_Memcpy)(SyclQueueRef, void*, const void*, std::size_t);
  void (*DPCTLEvent_Wait)(SyclEventRef);
  void (*DPCTLEvent_Delete)(SyclEventRef);
  void* (*DPCTLmalloc_device)(std::size_t, SyclQueueRef);
  void* (*DPCTLmalloc_shared)(std::size_t, SyclQueueRef);
  void* (*DPCTLmalloc_host)(std::size_t, SyclQueueRef);
  void (*DPCTLfree_with_queue)(void*, SyclQueueRef);
  int (*DPCTLUSM_GetPointerType)(const void*, SyclContextRef);
  SyclDeviceRef (*DPCTLUSM_GetPointerDevice)(const void*, SyclContextRef);
  void (*DPCTLCString_Delete)(const char*);
  const char* (*DPCTLService_GetDPCPPVersion)();
  // Optional: only the stream case's control needs them; NULL where the
  // library lacks them.
  SyclEventRef (*DPCTLQueue_Fill32)(SyclQueueRef, void*, std::uint32_t, std::size_t);
  void (*DPCTLQueue_Wait)(SyclQueueRef);
  SyclEventRef (*DPCTLQueue_SubmitBarrierForEvents)(SyclQueueRef, const SyclEventRef*, std::size_t);
};

// Where the library came from and which dpctl it belongs to.
struct DpctlLibrary {
  const DpctlApi* api = nullptr;
  std::string path;
  std::string found_by;       // "DLPACK_USM_DPCTL", "the tools interpreter ...", "python3 on PATH"
  std::string dpctl_version;  // empty where no dist-info sits beside the package
  std::string dpcpp_version;  // what the library reports about its SYCL runtime
};

// Finds and opens the interface once per process (dpctl_location.cpp says
// where it looks). On failure returns nullopt and fills `why` with what was
// tried and what is needed; a library of the wrong version is such a
// failure.
std::optional<DpctlLibrary> load_dpctl(std::string* why);

// The dpctl versions whose C prototypes match those declared above.
inline constexpr int kMinimumDpctlMajor = 0;
inline constexpr int kMinimumDpctlMinor = 21;

// A dpctl string (__dpctl_give const char*), copied and released.
std::string take_string(const DpctlApi& api, const char* text);

}  // namespace dlpack_usm::runtime::sycl
