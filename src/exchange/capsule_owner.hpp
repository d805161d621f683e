// Ownership of one DLPack tensor handed over by a producer: whoever holds a
// CapsuleOwner is the one party that calls the tensor's deleter, and it calls
// it exactly once (when reset or destroyed), on every path, errors included.
#pragma once

#include "dlpack/abi.hpp"

namespace dlpack_usm::exchange {

class CapsuleOwner {
 public:
  CapsuleOwner() = default;
  explicit CapsuleOwner(dlpack::DLManagedTensorVersioned* tensor) : versioned_(tensor) {}
  explicit CapsuleOwner(dlpack::DLManagedTensor* tensor) : legacy_(tensor) {}
  CapsuleOwner(CapsuleOwner&& other) noexcept { *this = static_cast<CapsuleOwner&&>(other); }
  CapsuleOwner& operator=(CapsuleOwner&& other) noexcept;
  CapsuleOwner(const CapsuleOwner&) = delete;
  CapsuleOwner& operator=(const CapsuleOwner&) = delete;
  ~CapsuleOwner() { reset(); }

  // Calls the deleter (when the producer gave one) and forgets the tensor.
  void reset() noexcept;

  // Gives the tensor up without calling its deleter: the caller now owns it.
  dlpack::DLManagedTensorVersioned* release_versioned() noexcept;
  dlpack::DLManagedTensor* release_legacy() noexcept;

  bool is_versioned() const { return versioned_ != nullptr; }
  dlpack::DLManagedTensorVersioned* versioned() const { return versioned_; }
  dlpack::DLManagedTensor* legacy() const { return legacy_; }
  // The tensor body. Only meaningful once the major version is known to be
  // one this model reads (dlpack.h: nothing past `flags` otherwise).
  const dlpack::DLTensor* dl_tensor() const;
  explicit operator bool() const { return versioned_ != nullptr || legacy_ != nullptr; }

 private:
  dlpack::DLManagedTensorVersioned* versioned_ = nullptr;
  dlpack::DLManagedTensor* legacy_ = nullptr;
};

}  // namespace dlpack_usm::exchange
