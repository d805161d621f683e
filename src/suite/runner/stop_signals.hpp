// The signals that stop a run: SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE
// (a reader of the run's output went away, or someone sent it). While a
// StopSignals lives each of them only notes that the run must stop: the
// runner then kills its workers, records the unfinished cases as not_run
// and writes every report, and `check` exits with 128 + the signal's number
// (dlpack-usm-check(1)). Children are started with exec, which gives them
// the default actions back.
#pragma once

#include <csignal>

namespace dlpack_usm::suite {

class StopSignals {
 public:
  // The outermost guard forgets earlier signals; an inner one (the runner's
  // inside `check`'s) keeps what the outer one noted.
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction previous_[5] = {};  // the handlers before, one per stop signal
};

// Whether a stop signal arrived while a guard was installed.
bool stop_requested();
// The first stop signal that arrived; 0 when none.
int stop_signal();

}  // namespace dlpack_usm::suite
