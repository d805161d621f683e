#include "suite/cases/producer/producer_stream_control.hpp"

#include "common/error.hpp"

namespace dlpack_usm::suite {
namespace {

// One attempt: true where the read at once differed from the read after the
// write was done (stale).
bool control_attempt(runtime::Runtime& runtime, const ControlExperiment& experiment,
                     runtime::UsmBuffer& buffer, const std::vector<std::byte>& zeros,
                     std::vector<std::byte>& now, std::vector<std::byte>& later) {
  // Cleared and waited for first, so that a read ahead of the write sees
  // zeros, never the pattern an earlier attempt left.
  runtime.copy(buffer.context(), experiment.device, buffer.data(), zeros.data(), zeros.size());
  {
    std::unique_ptr<runtime::LateWrite> write =
        runtime.start_late_write(*experiment.queue, experiment.device, buffer.data(),
                                 experiment.expected->data(), zeros.size(), experiment.order);
    runtime.read_on_queue(*experiment.queue, now.data(), buffer.data(), now.size());
    // Destroying the write waits for it.
  }
  runtime.read_on_queue(*experiment.queue, later.data(), buffer.data(), later.size());
  return now != later;
}

}  // namespace

QueueControl run_queue_control(runtime::Runtime& runtime, const ControlExperiment& experiment) {
  QueueControl control;
  control.kind = experiment.queue_words;
  std::size_t bytes = experiment.expected->size();
  try {
    runtime::UsmBuffer buffer = runtime.allocate(experiment.device, experiment.kind, bytes,
                                                 runtime::ContextChoice::platform_default);
    std::vector<std::byte> zeros(bytes);
    std::vector<std::byte> now(bytes);
    std::vector<std::byte> later(bytes);
    for (int i = 0; i < experiment.attempts; ++i) {
      if (control_attempt(runtime, experiment, buffer, zeros, now, later)) ++control.stale;
      ++control.attempts;
    }
  } catch (const Error& error) {
    if (error.code() != ExitCode::environment) throw;
    control.why_not = error.what();
  }
  return control;
}

}  // namespace dlpack_usm::suite
