#include "facts/memory_reader.hpp"

#include <cstddef>
#include <cstdint>

#include <fmt/format.h>

#include "facts/readable_memory.hpp"
#include "facts/reader_notes.hpp"

namespace dlpack_usm::facts {
namespace {

[[noreturn]] void fail_unreadable(const std::string& origin, std::string field,
                                  const std::string& what, const void* address, std::size_t bytes) {
  throw UnreadableMemory(
      field,
      fmt::format("{}: {} at {} ({} bytes) is not readable memory; a consumer reading it "
                  "would crash",
                  origin, what, address, bytes),
      "the producer must hand over a tensor whose struct, shape and strides lie in readable "
      "memory for as long as the consumer holds it (until the deleter runs)");
}

template <typename T>
T copy_struct(const T* source, const std::string& origin, const char* what) {
  T copy{};
  if (!copy_readable(&copy, source, sizeof copy)) {
    fail_unreadable(origin, "tensor", what, source, sizeof copy);
  }
  return copy;
}

// Copies `ndim` entries of a shape or strides array; NULL stays NULL
// (nullopt). The caller has already checked 0 <= ndim <= kMaxReadableDims,
// so this reads exactly what the producer declared and no more.
std::optional<std::vector<std::int64_t>> copy_dims(const std::int64_t* array, std::int32_t ndim,
                                                   const std::string& origin, const char* name) {
  if (array == nullptr) return std::nullopt;
  std::vector<std::int64_t> dims(static_cast<std::size_t>(ndim));
  std::size_t bytes = dims.size() * sizeof(std::int64_t);
  if (!copy_readable(dims.data(), array, bytes)) {
    fail_unreadable(origin, fmt::format("dl_tensor.{}", name),
                    fmt::format("the {} array (ndim {})", name, ndim), array, bytes);
  }
  return dims;
}

void read_dl_tensor(const dlpack::DLTensor& tensor, TensorFacts& facts) {
  facts.data = reinterpret_cast<std::uintptr_t>(tensor.data);
  facts.device_type = tensor.device.device_type;
  facts.device_id = tensor.device.device_id;
  facts.ndim = tensor.ndim;
  facts.dtype = tensor.dtype;
  facts.byte_offset = tensor.byte_offset;
  if (tensor.ndim < 0) {
    facts.reader_notes.push_back(note_ndim_negative(tensor.ndim));
    return;
  }
  if (tensor.ndim > kMaxReadableDims) {
    facts.reader_notes.push_back(note_ndim_beyond_limit(tensor.ndim));
    return;
  }
  facts.shape = copy_dims(tensor.shape, tensor.ndim, facts.origin, "shape");
  facts.strides = copy_dims(tensor.strides, tensor.ndim, facts.origin, "strides");
}

// The members of DLManagedTensorVersioned that keep their place across
// major versions (dlpack.h): the only ones read before the major is known.
struct StableHeader {
  dlpack::DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(dlpack::DLManagedTensorVersioned*);
  std::uint64_t flags;
};
static_assert(sizeof(StableHeader) == offsetof(dlpack::DLManagedTensorVersioned, dl_tensor));

}  // namespace

TensorFacts read_managed_tensor(const dlpack::DLManagedTensor* tensor, std::string origin) {
  if (tensor == nullptr) {
    throw Error(ExitCode::usage, "no tensor to read: the DLManagedTensor pointer is NULL",
                "hand over the tensor the producer returned");
  }
  TensorFacts facts;
  facts.abi = Abi::legacy;
  facts.version = {0, 0};
  facts.flags = 0;
  facts.origin = std::move(origin);
  dlpack::DLManagedTensor copy = copy_struct(tensor, facts.origin, "the DLManagedTensor");
  facts.has_deleter = copy.deleter != nullptr;
  facts.has_manager_ctx = copy.manager_ctx != nullptr;
  read_dl_tensor(copy.dl_tensor, facts);
  return facts;
}

TensorFacts read_managed_tensor_versioned(const dlpack::DLManagedTensorVersioned* tensor,
                                          std::string origin) {
  if (tensor == nullptr) {
    throw Error(ExitCode::usage, "no tensor to read: the DLManagedTensorVersioned pointer is NULL",
                "hand over the tensor the producer returned");
  }
  TensorFacts facts;
  facts.abi = Abi::versioned;
  facts.origin = std::move(origin);
  StableHeader header = copy_struct(reinterpret_cast<const StableHeader*>(tensor), facts.origin,
                                    "the DLManagedTensorVersioned");
  facts.version = header.version;
  facts.has_manager_ctx = header.manager_ctx != nullptr;
  facts.has_deleter = header.deleter != nullptr;
  facts.flags = header.flags;
  if (facts.version.major != dlpack::kModelMajor) {
    facts.body_read = false;
    facts.reader_notes.push_back(note_unknown_major(facts.version.major));
    return facts;
  }
  // By address arithmetic, not tensor->dl_tensor: the pointer is not yet
  // known to point to a DLManagedTensorVersioned (or to be aligned).
  const auto* body = reinterpret_cast<const dlpack::DLTensor*>(
      reinterpret_cast<std::uintptr_t>(tensor) +
      offsetof(dlpack::DLManagedTensorVersioned, dl_tensor));
  read_dl_tensor(copy_struct(body, facts.origin, "the DLManagedTensorVersioned"), facts);
  return facts;
}

}  // namespace dlpack_usm::facts
