// The control of the C plugins' stream case (issue 34, "controls before
// blame"): where a library's tensor read stale on the consumer's queue, the
// tool repeats the experiment with its own correct producer on the same
// runtime, device, memory kind and queue. It clears an allocation of its
// own, makes the same kind of late write a library with work in flight
// makes (Runtime::start_late_write: slow work, then the copy of the
// pattern, on a queue of its own), does the producer's part of the protocol
// (a barrier on the consumer's queue that waits for the write), reads the
// elements on the queue at once, and again once the write is done. A stale
// read then is the runtime's, not the library's (queue_order_verdict.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"
#include "suite/cases/producer/queue_order_verdict.hpp"

namespace dlpack_usm::suite {

struct ControlExperiment {
  runtime::DeviceRef device;
  facts::UsmKind kind = facts::UsmKind::unknown;
  const runtime::ConsumerQueue* queue = nullptr;
  std::string queue_words;  // the queue kind, as messages name it
  // What the write puts in the allocation: what the library's tensor holds.
  const std::vector<std::byte>* expected = nullptr;
  int attempts = 0;
  // barrier_on_consumer_queue for the control; none shows that the
  // experiment can fail (its test).
  runtime::LateWriteOrder order = runtime::LateWriteOrder::barrier_on_consumer_queue;
};

// What the control saw; why_not where the runtime could not run it.
QueueControl run_queue_control(runtime::Runtime& runtime, const ControlExperiment& experiment);

}  // namespace dlpack_usm::suite
