#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::suite {

const std::vector<std::string>& profile_axes() {
  static const std::vector<std::string> axes{"dtype", "layout", "usm-kind", "version", "invalid"};
  return axes;
}

bool is_profile_class(ExchangeOutcome outcome) {
  switch (outcome) {
    case ExchangeOutcome::accepted:
    case ExchangeOutcome::declined:
    case ExchangeOutcome::wrong:
    case ExchangeOutcome::accepted_invalid:
    case ExchangeOutcome::crash:
    case ExchangeOutcome::hang:
    case ExchangeOutcome::deleter_misuse:
    case ExchangeOutcome::refused:
      return true;
    default:
      return false;
  }
}

const MatrixLine* profile_line(const RecordedCase& recorded) {
  const CasePlace& place = recorded.spec.place;
  ExchangeOutcome exchange = recorded.result.exchange;
  if (place.direction != Direction::consumer || place.lines.empty()) return nullptr;
  if (exchange != ExchangeOutcome::none && !is_profile_class(exchange)) return nullptr;
  return &place.lines.front();
}

std::vector<ProfileEntry> capability_profile(const CheckRun& run) {
  std::vector<ProfileEntry> profile;
  for (const RecordedCase& recorded : run.cases) {
    const MatrixLine* line = profile_line(recorded);
    const CaseResult& result = recorded.result;
    if (line == nullptr || result.exchange == ExchangeOutcome::none) continue;
    bool failed = is_failing(result.outcome, run.strict);
    profile.push_back({recorded.spec.device, line->axis, line->value, to_string(result.exchange),
                       result.id,
                       result.decline_reason.empty() ? result.message : result.decline_reason,
                       to_string(result.outcome), failed});
  }
  return profile;
}

}  // namespace dlpack_usm::suite
