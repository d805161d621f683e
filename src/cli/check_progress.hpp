// What `check` shows on stderr while its cases run. On a terminal: one
// line naming the case started last, rewritten in place and cut to the
// terminal's width (COLUMNS, else the terminal's own) so that it never
// wraps. In a log (stderr not a terminal): a status line every interval
// (DLPACK_USM_STATUS_INTERVAL_S seconds, 30 by default, 0 for none), also
// while every case hangs, so that a CI log never goes silent for long.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "suite/gate/run_check.hpp"
#include "suite/gate/run_status.hpp"

namespace dlpack_usm::cli {

inline constexpr std::chrono::seconds kDefaultStatusInterval{30};

// DLPACK_USM_STATUS_INTERVAL_S, or the default where it is unset; throws
// Error(usage) for a value that is no number of seconds from 0 to a day.
std::chrono::milliseconds status_interval_from_environment();

class CheckProgress {
 public:
  // Reads the interval from the environment (Error(usage) as above).
  CheckProgress();

  // The callbacks of run_check that show the run; the progress outlives
  // the run.
  suite::CheckCallbacks callbacks();
  // Clears the terminal's progress line before the summary.
  void finish();

 private:
  void started(const suite::CaseSpec& spec, std::size_t started, std::size_t total);
  void tick(const suite::RunStatus& status);
  void limit_reached(const std::string& reason);

  bool terminal_;
  std::size_t columns_;
  suite::StatusSchedule schedule_;
};

}  // namespace dlpack_usm::cli
