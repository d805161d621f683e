#include "exchange/capsule_owner.hpp"

namespace dlpack_usm::exchange {

CapsuleOwner& CapsuleOwner::operator=(CapsuleOwner&& other) noexcept {
  if (this != &other) {
    reset();
    versioned_ = other.versioned_;
    legacy_ = other.legacy_;
    other.versioned_ = nullptr;
    other.legacy_ = nullptr;
  }
  return *this;
}

void CapsuleOwner::reset() noexcept {
  // Forget first: a deleter that throws or re-enters must never see the
  // tensor called twice.
  dlpack::DLManagedTensorVersioned* versioned = versioned_;
  dlpack::DLManagedTensor* legacy = legacy_;
  versioned_ = nullptr;
  legacy_ = nullptr;
  if (versioned != nullptr && versioned->deleter != nullptr) versioned->deleter(versioned);
  if (legacy != nullptr && legacy->deleter != nullptr) legacy->deleter(legacy);
}

dlpack::DLManagedTensorVersioned* CapsuleOwner::release_versioned() noexcept {
  dlpack::DLManagedTensorVersioned* tensor = versioned_;
  versioned_ = nullptr;
  return tensor;
}

dlpack::DLManagedTensor* CapsuleOwner::release_legacy() noexcept {
  dlpack::DLManagedTensor* tensor = legacy_;
  legacy_ = nullptr;
  return tensor;
}

const dlpack::DLTensor* CapsuleOwner::dl_tensor() const {
  if (versioned_ != nullptr) return &versioned_->dl_tensor;
  if (legacy_ != nullptr) return &legacy_->dl_tensor;
  return nullptr;
}

}  // namespace dlpack_usm::exchange
