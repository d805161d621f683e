// The tool's own model of the DLPack C ABI, from the legacy 0.x
// DLManagedTensor through DLManagedTensorVersioned of DLPack 1.3, with the
// enumerators main's header added after 1.3 (generations.hpp).
//
// Debian 12 ships dlpack 0.6 and some systems ship no dlpack.h at all, so the
// tool cannot take these structs from the system. abi_crosscheck.cpp proves at
// build time that every struct the system header does define has the same
// layout as the ones here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlpack_usm::dl {

// The newest DLPack release this model knows completely.
inline constexpr std::uint32_t kModelMajor = 1;
inline constexpr std::uint32_t kModelMinor = 3;

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

// Values of DLDeviceType. Kept as plain integers in the structs because a
// producer may hand over any int32; the rules decide what is valid.
enum DeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
  // main after 1.3 (no release yet)
  kDLTPU = 19,
  kDLTPUHost = 20,
  kDLAscend = 21,
};

// Values of DLDataTypeCode.
enum DataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17,
  // main after 1.3 (no release yet)
  kDLBcomplex = 18,
};

// Flag bits of DLManagedTensorVersioned::flags.
inline constexpr std::uint64_t kFlagReadOnly = 1ULL << 0;             // since 1.0
inline constexpr std::uint64_t kFlagIsCopied = 1ULL << 1;             // since 1.0
inline constexpr std::uint64_t kFlagIsSubbyteTypePadded = 1ULL << 2;  // since 1.1

struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};

struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

// The C exchange API of DLPack 1.2 and later: a table of function pointers a
// library publishes (in Python through __dlpack_c_exchange_api__). The tool
// calls managed_tensor_allocator and current_work_stream; the members that
// take Python objects are kept as opaque pointers so the layout matches.
struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  DLPackExchangeAPIHeader* prev_api;  // the same table for an older major version, or NULL
};

using DLPackSetError = void (*)(void* error_ctx, const char* kind, const char* message);
// 0 on success with *out set; -1 on failure, having called SetError.
using DLPackManagedTensorAllocator = int (*)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                             void* error_ctx, DLPackSetError set_error);

// 0 on success with *out_current_stream set; -1 on failure. device_type is
// a DLDeviceType, an int32 in C++.
using DLPackCurrentWorkStream = int (*)(std::int32_t device_type, std::int32_t device_id,
                                        void** out_current_stream);

struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  void* managed_tensor_from_py_object_no_sync;
  void* managed_tensor_to_py_object_no_sync;
  void* dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
};

// The x86-64 layouts of DLPACK_FACTS.md. Everything up to `flags` must stay
// put across major versions so that any consumer can call the deleter.
static_assert(sizeof(DLDevice) == 8);
static_assert(sizeof(DLDataType) == 4);
static_assert(sizeof(DLTensor) == 48);
static_assert(offsetof(DLTensor, shape) == 24);
static_assert(offsetof(DLTensor, byte_offset) == 40);
static_assert(sizeof(DLManagedTensor) == 64);
static_assert(sizeof(DLManagedTensorVersioned) == 80);
static_assert(offsetof(DLManagedTensorVersioned, deleter) == 16);
static_assert(offsetof(DLManagedTensorVersioned, flags) == 24);
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32);
static_assert(sizeof(DLPackExchangeAPIHeader) == 16);
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_allocator) == 16);
static_assert(sizeof(DLPackExchangeAPI) == 56);

}  // namespace dlpack_usm::dl
