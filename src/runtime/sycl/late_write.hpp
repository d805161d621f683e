// The stream case's control on SYCL (Runtime::start_late_write): the late
// write of a correct producer, through dpctl's C interface as the fixture
// producers built with FIXTURE_SYCL and FIXTURE_ASYNC_WRITE make it, so that
// the control and the library under test ask the runtime the same thing.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/runtime.hpp"
#include "runtime/sycl/dpctl_api.hpp"

namespace dlpack_usm::runtime::sycl {

// Where the write happens: the consumer's queue, and the context and device
// of the write's own queue.
struct LateWriteTarget {
  SyclQueueRef consumer_queue = nullptr;
  SyclContextRef context = nullptr;
  SyclDeviceRef device = nullptr;
};

std::unique_ptr<LateWrite> start_sycl_late_write(const DpctlApi& api, const LateWriteTarget& target,
                                                 void* destination, const void* source,
                                                 std::size_t bytes, LateWriteOrder order);

}  // namespace dlpack_usm::runtime::sycl
