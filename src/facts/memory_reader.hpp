// Reads Facts from a tensor a producer handed over in memory, without
// trusting it: NULL shape or strides, negative or huge ndim, and an unknown
// major version (nothing past `flags` is read then, as dlpack.h requires).
#pragma once

#include <string>

#include "dlpack/abi.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

// `tensor` must not be NULL (throws Error(usage) if it is). Runtime facts are
// not filled here; the exchange adds them from live runtime queries.
TensorFacts read_managed_tensor(const dl::DLManagedTensor* tensor, std::string origin);
TensorFacts read_managed_tensor_versioned(const dl::DLManagedTensorVersioned* tensor,
                                          std::string origin);

}  // namespace dlpack_usm::facts
