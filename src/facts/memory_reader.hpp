// Reads Facts from a tensor a producer handed over in memory, without
// trusting it: NULL shape or strides, negative or huge ndim, an unknown major
// version (nothing past `flags` is read then, as dlpack.h requires), and
// pointers to memory that cannot be read (page-guarded copies, see
// readable_memory.hpp: never a crash of the reading process).
#pragma once

#include <string>

#include "common/error.hpp"
#include "dlpack/abi.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

// The struct, its shape or its strides lie in memory this process cannot
// read: the producer's fault, so its class is ExitCode::findings. `field`
// names the pointer as findings do ("dl_tensor.shape"; "tensor" for the
// struct itself).
class UnreadableMemory : public Error {
 public:
  UnreadableMemory(std::string field, std::string what, std::string hint)
      : Error(ExitCode::findings, std::move(what), std::move(hint)), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// `tensor` must not be NULL (throws Error(usage) if it is); throws
// UnreadableMemory where it or its arrays cannot be read. Runtime facts are
// not filled here; the exchange adds them from live runtime queries.
TensorFacts read_managed_tensor(const dlpack::DLManagedTensor* tensor, std::string origin);
TensorFacts read_managed_tensor_versioned(const dlpack::DLManagedTensorVersioned* tensor,
                                          std::string origin);

}  // namespace dlpack_usm::facts
