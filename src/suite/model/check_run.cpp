#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

VerdictCounts CheckRun::verdict_counts() const {
  VerdictCounts counts;
  for (const RecordedCase& recorded : cases) {
    if (recorded.result.outcome == Outcome::skipped) continue;
    switch (recorded.result.verdict) {
      case Verdict::ok:
        ++counts.ok;
        break;
      case Verdict::expected_failure:
        ++counts.expected_failure;
        break;
      case Verdict::flaky:
        ++counts.flaky;
        break;
      case Verdict::unexpected_pass:
        ++counts.unexpected_pass;
        break;
      case Verdict::regression:
        ++counts.regression;
        break;
    }
  }
  return counts;
}

int CheckRun::outcome_count(Outcome outcome) const {
  int count = 0;
  for (const RecordedCase& recorded : cases) count += recorded.result.outcome == outcome ? 1 : 0;
  return count;
}

bool CheckRun::gate_passed() const {
  // An interrupted run never passes: the cases it did not finish may be
  // expected to fail, but nobody saw them do so.
  VerdictCounts counts = verdict_counts();
  return !interrupted && counts.regression == 0 && counts.unexpected_pass == 0;
}

bool is_plain_label(std::string_view text) {
  return !text.empty() && text.size() <= kMaxLabelLength &&
         text.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
             "0123456789._-") == std::string_view::npos;
}

}  // namespace dlpack_usm::suite
