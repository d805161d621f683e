// Facts: plain values describing one DLPack tensor exactly as a producer
// handed it over, plus what the owning runtime says about its data pointer.
// Readers (in-memory structs, capsule files) fill them defensively; rules are
// pure functions of them. Nothing here points into producer memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlpack/abi.hpp"

namespace dlpack_usm::facts {

// Readers never copy more dimensions than this; a tensor claiming more is
// reported (DLP-NDIM-LIMIT) and its shape and strides are left unread.
inline constexpr std::int64_t kMaxReadableDims = 1024;

enum class Abi { legacy, versioned };

// The USM allocation kinds of SYCL 2020 (sycl::usm::alloc), as the OpenCL
// extension reports them through CL_MEM_ALLOC_TYPE_INTEL.
enum class UsmKind { unknown, host, device, shared };
const char* to_string(UsmKind kind);
std::optional<UsmKind> parse_usm_kind(const std::string& text);

// What the CUDA driver says a pointer is (CU_POINTER_ATTRIBUTE_MEMORY_TYPE
// and CU_POINTER_ATTRIBUTE_IS_MANAGED): device memory (cudaMalloc), page-locked
// host memory (cudaMallocHost, cudaHostRegister), managed memory
// (cudaMallocManaged), a CUDA array, or a pointer the driver does not know
// (pageable host memory, another runtime's, or no allocation at all).
enum class CudaMemoryType { unregistered, device, host, managed, array };
const char* to_string(CudaMemoryType type);
std::optional<CudaMemoryType> parse_cuda_memory_type(const std::string& text);

// What the runtime that owns the pointer says about it. Every member is
// optional because a capsule file may record only part of it.
struct RuntimeFacts {
  std::optional<UsmKind> usm_kind;
  // Index of the owning device's root device among all root devices, in the
  // enumeration order that defines kDLOneAPI device ids.
  std::optional<std::int32_t> owner_root_index;
  // Set when the allocation was made on a sub-device: its position among its
  // root device's sub-devices.
  std::optional<std::int32_t> owner_sub_device_index;
  std::optional<std::string> owner_device_name;  // "opencl:cpu:1.0"
  std::optional<std::int32_t> root_device_count;
  // Whether the allocation is bound to the default context of the owning
  // device's platform (the context the import protocol looks it up in).
  std::optional<bool> default_context;
  std::optional<std::uint64_t> alloc_base;
  std::optional<std::uint64_t> alloc_size;

  // CUDA (kDLCUDA, kDLCUDAHost, kDLCUDAManaged): what the driver of the
  // process that held the tensor says. Ordinals are that process's, after
  // CUDA_VISIBLE_DEVICES, which is what a kDLCUDA device_id means.
  std::optional<CudaMemoryType> cuda_memory_type;
  // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: the device the memory was allocated
  // on or registered with.
  std::optional<std::int32_t> cuda_ordinal;
  std::optional<std::int32_t> cuda_device_count;  // cuDeviceGetCount
  // CUDA_VISIBLE_DEVICES as the process had it, when set.
  std::optional<std::string> cuda_visible_devices;
};

struct TensorFacts {
  Abi abi = Abi::versioned;
  // Versioned only: the readers set version {0, 0} and flags 0 for a legacy
  // DLManagedTensor, which has neither.
  dlpack::DLPackVersion version{dlpack::kModelMajor, dlpack::kModelMinor};
  std::uint64_t flags = 0;
  bool has_deleter = true;
  bool has_manager_ctx = false;

  // False when the versioned header declared a major version the reader does
  // not know: as the header requires, nothing past `flags` was read, and every
  // field below holds its default.
  bool body_read = true;

  std::uint64_t data = 0;  // the pointer as an address
  std::int32_t device_type = dlpack::kDLCPU;
  std::int32_t device_id = 0;
  std::int64_t ndim = 0;  // capsule files may state any value; C says int32
  dlpack::DLDataType dtype{dlpack::kDLFloat, 32, 1};
  // nullopt stands for a NULL pointer in the C struct. Both are left empty
  // (nullopt) when ndim is negative or beyond kMaxReadableDims.
  std::optional<std::vector<std::int64_t>> shape;
  std::optional<std::vector<std::int64_t>> strides;
  std::uint64_t byte_offset = 0;

  std::optional<RuntimeFacts> runtime;

  // Where the facts came from, for messages: "capsule.json#2", "live:opencl:cpu:1".
  std::string origin;
  // What the reader had to do to stay safe ("ndim 1000000 exceeds the limit
  // of 1024; shape and strides not read").
  std::vector<std::string> reader_notes;
};

}  // namespace dlpack_usm::facts
