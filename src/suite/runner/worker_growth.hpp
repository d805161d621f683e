// How many workers a run starts: each costs a runtime start (about 0.3 s of
// driver set-up on the GPU machine, where 16 starting at once cost a whole
// second of system time), so a worker that takes more cases is added only
// where the cases left would keep every worker busy longer than a start
// takes. Two always run, so that one hang does not stall the run; more wait
// for the first figures (a worker ready, a case finished).
#pragma once

#include <cstddef>

namespace dlpack_usm::suite {

inline constexpr std::size_t kWorkersAlwaysStarted = 2;

// What the run has seen so far.
class WorkerFigures {
 public:
  void worker_ready(double since_start_ms) {
    start_ms_ += since_start_ms;
    ++starts_;
  }
  void case_finished(double duration_ms) {
    case_ms_ += duration_ms;
    ++cases_;
  }
  // Whether one more worker pays for its start, with `active` running and
  // `pending` cases left.
  bool worth_another(std::size_t active, std::size_t pending) const {
    if (active < kWorkersAlwaysStarted) return true;
    if (starts_ == 0 || cases_ == 0) return false;
    double start_ms = start_ms_ / static_cast<double>(starts_);
    double left_ms = static_cast<double>(pending) * case_ms_ / static_cast<double>(cases_);
    return left_ms / static_cast<double>(active) > start_ms;
  }

 private:
  double start_ms_ = 0;
  std::size_t starts_ = 0;
  double case_ms_ = 0;
  std::size_t cases_ = 0;
};

}  // namespace dlpack_usm::suite
