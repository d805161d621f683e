// Ownership of one DLPack tensor handed over by a producer: whoever holds a
// CapsuleOwner is the one party that calls the tensor's deleter, and it calls
// it exactly once (when reset or destroyed), on every path, errors included.
#pragma once

#include "dlpack/abi.hpp"

namespace dlpack_usm::exchange {

class CapsuleOwner {
 public:
  CapsuleOwner() = default;
  explicit CapsuleOwner(dl::DLManagedTensorVersioned* tensor) : versioned_(tensor) {}
  explicit CapsuleOwner(dl::DLManagedTensor* tensor) : legacy_(tensor) {}
  CapsuleOwner(CapsuleOwner&& other) noexcept { *this = static_cast<CapsuleOwner&&>(other); }
  CapsuleOwner& operator=(CapsuleOwner&& other) noexcept;
  CapsuleOwner(const CapsuleOwner&) = delete;
  CapsuleOwner& operator=(const CapsuleOwner&) = delete;
  ~CapsuleOwner() { reset(); }

  // Calls the deleter (when the producer gave one) and forgets the tensor.
  void reset() noexcept;

  // Gives the tensor up without calling its deleter: the caller now owns it.
  dl::DLManagedTensorVersioned* release_versioned() noexcept;
  dl::DLManagedTensor* release_legacy() noexcept;

  bool is_versioned() const { return versioned_ != nullptr; }
  dl::DLManagedTensorVersioned* versioned() const { return versioned_; }
  dl::DLManagedTensor* legacy() const { return legacy_; }
  // The tensor body. Only meaningful once the major version is known to be
  // one this model reads (dlpack.h: nothing past `flags` otherwise).
  const dl::DLTensor* dl_tensor() const;
  explicit operator bool() const { return versioned_ != nullptr || legacy_ != nullptr; }

 private:
  dl::DLManagedTensorVersioned* versioned_ = nullptr;
  dl::DLManagedTensor* legacy_ = nullptr;
};

}  // namespace dlpack_usm::exchange
