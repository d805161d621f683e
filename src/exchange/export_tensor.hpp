// Export of a USM allocation as a DLPack tensor, as dpctl's documentation
// ("DLPack exchange of USM allocated arrays") and Intel Extension for
// PyTorch's describe it: the owning device of the pointer, its
// parent root device if it is a sub-device, that root's index as the
// kDLOneAPI device_id; a pointer not bound to its platform's default context
// is refused. Export never copies: data is the caller's pointer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dlpack/names.hpp"
#include "exchange/capsule_owner.hpp"
#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::exchange {

struct ExportRequest {
  void* data = nullptr;         // a USM pointer (the allocation or a pointer into it)
  runtime::ContextRef context;  // the context the pointer is bound to
  dlpack::DLDataType dtype{dlpack::kDLFloat, 32, 1};
  std::vector<std::int64_t> shape;
  // In elements. nullopt: compact row-major, written as NULL strides where
  // the emitted version allows it (before 1.2) and spelled out from 1.2 on.
  std::optional<std::vector<std::int64_t>> strides;
  std::uint64_t byte_offset = 0;
  // Held by the tensor until its deleter runs, so that the allocation
  // outlives every consumer (say, a shared_ptr<UsmBuffer>). May be empty.
  std::shared_ptr<const void> keep_alive;
  // A size-0 tensor is exported with NULL data, as dlpack.h recommends ("if
  // the tensor is of size zero, then the data pointer should be set to
  // NULL"); the pointer still tells the protocol the owning device. Off for
  // a caller that offers size-0 tensors with a pointer on purpose (the
  // consumer matrix).
  bool null_data_when_empty = true;
};

struct ExportOptions {
  // The newest DLPack version the consumer reads (the Python protocol's
  // max_version): below 1.0 gives a legacy DLManagedTensor; 1.x gives a
  // DLManagedTensorVersioned of min(1.x, 1.3); a newer major gets 1.3.
  dlpack::Release max_version = dlpack::kModelRelease;
  bool read_only = false;  // sets READ_ONLY; refused for legacy tensors, which have no flags
};

struct ExportedTensor {
  // Owns the tensor until it is handed to a consumer (take it with
  // capsule.release_versioned() / release_legacy(), or move the owner).
  CapsuleOwner capsule;
  // What the facts reader and the runtime said about it at export.
  facts::TensorFacts facts;
  // Warnings and infos of the rule engine; an error would have refused it.
  std::vector<rules::Finding> findings;
};

// The version export emits for a consumer's max_version.
dlpack::Release negotiated_version(dlpack::Release max_version);

// Throws Error(usage) for a malformed request, Error(findings) when the
// protocol or a rule refuses the pointer (naming the rule), Error(environment)
// when the runtime cannot answer.
ExportedTensor export_tensor(runtime::Runtime& runtime, const ExportRequest& request,
                             const ExportOptions& options);

}  // namespace dlpack_usm::exchange
