// Where a run stands while it runs: how many of its cases finished, by
// outcome, and for how long it has run; and the status line `check` prints
// in logs (deqp-runner's shape), so a CI log shows a run that goes on.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

struct RunStatus {
  std::size_t finished = 0;
  std::size_t total = 0;  // the cases the selection runs
  std::map<Outcome, int> outcomes;
  std::chrono::steady_clock::duration elapsed{};

  void count(const CaseResult& result);
};

// "1:02", "1:02:03": minutes and seconds, hours once there are any.
std::string elapsed_text(std::chrono::steady_clock::duration elapsed);

// "[212/493] pass 205 fail 3 crash 1 timeout 3 · 1:02 elapsed": pass, fail,
// crash and timeout always, the other outcomes where a case had them.
std::string status_line(const RunStatus& status);

// When the next status line is due: every `interval` of a run's elapsed
// time; an interval of zero never.
class StatusSchedule {
 public:
  using Duration = std::chrono::steady_clock::duration;
  explicit StatusSchedule(Duration interval) : interval_(interval), next_(interval) {}

  // True once per interval passed, at the first call after it.
  bool due(Duration elapsed);

 private:
  Duration interval_;
  Duration next_;
};

}  // namespace dlpack_usm::suite
