#include "suite/gate/run_status.hpp"

#include <fmt/format.h>

namespace dlpack_usm::suite {

void RunStatus::count(const CaseResult& result) {
  ++finished;
  ++outcomes[result.outcome];
}

std::string elapsed_text(std::chrono::steady_clock::duration elapsed) {
  long long seconds = std::chrono::duration_cast<std::chrono::seconds>(elapsed).count();
  if (seconds < 0) seconds = 0;
  if (seconds < 3600) return fmt::format("{}:{:02}", seconds / 60, seconds % 60);
  return fmt::format("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
}

std::string status_line(const RunStatus& status) {
  std::string line = fmt::format("[{}/{}]", status.finished, status.total);
  for (Outcome outcome : {Outcome::pass, Outcome::warn, Outcome::fail, Outcome::not_supported,
                          Outcome::error, Outcome::crash, Outcome::timeout, Outcome::not_run}) {
    auto found = status.outcomes.find(outcome);
    int count = found == status.outcomes.end() ? 0 : found->second;
    bool always = outcome == Outcome::pass || outcome == Outcome::fail ||
                  outcome == Outcome::crash || outcome == Outcome::timeout;
    if (count > 0 || always) line += fmt::format(" {} {}", to_string(outcome), count);
  }
  return line + fmt::format(" \u00b7 {} elapsed", elapsed_text(status.elapsed));
}

bool StatusSchedule::due(Duration elapsed) {
  if (interval_ <= Duration::zero() || elapsed < next_) return false;
  // A turn that came late (a slow machine) gives one line, not a burst.
  while (next_ <= elapsed) next_ += interval_;
  return true;
}

}  // namespace dlpack_usm::suite
