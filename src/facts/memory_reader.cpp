#include "facts/memory_reader.hpp"

#include <cstdint>

#include "common/error.hpp"
#include "facts/reader_notes.hpp"

namespace dlpack_usm::facts {
namespace {

// Copies `ndim` entries of a shape or strides array; NULL stays NULL
// (nullopt). The caller has already checked 0 <= ndim <= kMaxReadableDims,
// so this reads exactly what the producer declared and no more.
std::optional<std::vector<std::int64_t>> copy_dims(const std::int64_t* array, std::int32_t ndim) {
  if (array == nullptr) return std::nullopt;
  return std::vector<std::int64_t>(array, array + ndim);
}

void read_dl_tensor(const dl::DLTensor& tensor, TensorFacts& facts) {
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
  facts.shape = copy_dims(tensor.shape, tensor.ndim);
  facts.strides = copy_dims(tensor.strides, tensor.ndim);
}

}  // namespace

TensorFacts read_managed_tensor(const dl::DLManagedTensor* tensor, std::string origin) {
  if (tensor == nullptr) {
    throw Error(ExitCode::usage, "no tensor to read: the DLManagedTensor pointer is NULL",
                "hand over the tensor the producer returned");
  }
  TensorFacts facts;
  facts.abi = Abi::legacy;
  facts.version = {0, 0};
  facts.flags = 0;
  facts.origin = std::move(origin);
  facts.has_deleter = tensor->deleter != nullptr;
  facts.has_manager_ctx = tensor->manager_ctx != nullptr;
  read_dl_tensor(tensor->dl_tensor, facts);
  return facts;
}

TensorFacts read_managed_tensor_versioned(const dl::DLManagedTensorVersioned* tensor,
                                          std::string origin) {
  if (tensor == nullptr) {
    throw Error(ExitCode::usage, "no tensor to read: the DLManagedTensorVersioned pointer is NULL",
                "hand over the tensor the producer returned");
  }
  TensorFacts facts;
  facts.abi = Abi::versioned;
  facts.origin = std::move(origin);
  // These four members keep their place across major versions (dlpack.h),
  // so they are the only ones read before the major version is known.
  facts.version = tensor->version;
  facts.has_manager_ctx = tensor->manager_ctx != nullptr;
  facts.has_deleter = tensor->deleter != nullptr;
  facts.flags = tensor->flags;
  if (facts.version.major != dl::kModelMajor) {
    facts.body_read = false;
    facts.reader_notes.push_back(note_unknown_major(facts.version.major));
    return facts;
  }
  read_dl_tensor(tensor->dl_tensor, facts);
  return facts;
}

}  // namespace dlpack_usm::facts
