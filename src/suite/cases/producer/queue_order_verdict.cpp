#include "suite/cases/producer/queue_order_verdict.hpp"

#include <fmt/format.h>

#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {

QueueOrderVerdict judge_queue_controls(const std::string& runtime,
                                       const std::vector<QueueControl>& controls) {
  constexpr std::string_view rule = rules::ids::kRuntimeQueueOrder;
  QueueOrderVerdict verdict;
  std::string shown;
  for (const QueueControl& control : controls) {
    if (!control.why_not.empty()) {
      verdict.notes.push_back(
          fmt::format("control on {}: not run, {}", control.kind, control.why_not));
    } else if (control.stale == 0) {
      verdict.notes.push_back(
          fmt::format("control on {}: no stale read in {} attempts after the tool's own wait",
                      control.kind, control.attempts));
    } else {
      verdict.blocked[control.kind] = fmt::format(
          "blocked by {}: the tool's own wait, done on the same work and {}, read stale data in "
          "{} of {} attempts",
          rule, control.kind, control.stale, control.attempts);
      shown += fmt::format("{}on {}, stale data in {} of {} attempts", shown.empty() ? "" : "; ",
                           control.kind, control.stale, control.attempts);
    }
  }
  if (!shown.empty()) {
    verdict.runtime_finding = fmt::format(
        "rule {}: {} read data still being written by earlier work although the tool ordered "
        "the read after that work itself: {}. The runtime, not the library under test, "
        "misorders the read: the library's results on these kinds are blocked",
        rule, runtime, shown);
  }
  return verdict;
}

}  // namespace dlpack_usm::suite
