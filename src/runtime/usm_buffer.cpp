#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {

UsmBuffer& UsmBuffer::operator=(UsmBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    runtime_ = other.runtime_;
    data_ = other.data_;
    bytes_ = other.bytes_;
    kind_ = other.kind_;
    device_ = other.device_;
    context_ = other.context_;
    other.data_ = nullptr;
    other.runtime_ = nullptr;
  }
  return *this;
}

void UsmBuffer::reset() noexcept {
  if (runtime_ != nullptr && data_ != nullptr) runtime_->release(data_, context_);
  data_ = nullptr;
  runtime_ = nullptr;
}

}  // namespace dlpack_usm::runtime
