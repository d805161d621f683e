#include "runtime/runtime.hpp"

#include "common/error.hpp"

namespace dlpack_usm::runtime {

ConsumerQueue& ConsumerQueue::operator=(ConsumerQueue&& other) noexcept {
  if (this != &other) {
    reset();
    runtime_ = other.runtime_;
    handle_ = other.handle_;
    context_ = other.context_;
    out_of_order_ = other.out_of_order_;
    other.handle_ = nullptr;
    other.runtime_ = nullptr;
  }
  return *this;
}

void ConsumerQueue::reset() noexcept {
  if (runtime_ != nullptr && handle_ != nullptr) runtime_->release_queue(handle_);
  handle_ = nullptr;
  runtime_ = nullptr;
}

std::unique_ptr<LateWrite> Runtime::start_late_write(const ConsumerQueue&, const DeviceRef&, void*,
                                                     const void*, std::size_t, LateWriteOrder) {
  fail_environment("this runtime cannot make the stream case's control write");
}

}  // namespace dlpack_usm::runtime
