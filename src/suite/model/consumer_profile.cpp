#include "suite/model/consumer_profile.hpp"

#include <algorithm>

namespace dlpack_usm::suite {
namespace {

// A stream value as the consumer passed it: "None", a number, or what the
// worker said of an object ("<dpctl._sycl_queue.SyclQueue>").
std::string stream_text(const nlohmann::json& value) {
  if (value.is_null()) return "None";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// The streams the __dlpack__ calls of one record's evidence passed.
std::vector<std::string> streams_of(const CaseResult& result) {
  std::vector<std::string> passed;
  const nlohmann::json& evidence = result.evidence;
  if (!evidence.is_object() || !evidence.contains("calls") || !evidence["calls"].is_array()) {
    return passed;
  }
  for (const nlohmann::json& call : evidence["calls"]) {
    if (!call.is_object() || call.value("method", "") != "__dlpack__" || !call.contains("stream")) {
      continue;
    }
    passed.push_back(stream_text(call["stream"]));
  }
  return passed;
}

}  // namespace

const std::vector<std::string>& profile_axes() {
  static const std::vector<std::string> axes{"dtype",    "layout",  "memory",
                                             "usm-kind", "version", "invalid"};
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

std::vector<StreamsPassed> consumer_streams(const CheckRun& run) {
  std::vector<StreamsPassed> streams;
  for (const RecordedCase& recorded : run.cases) {
    const CasePlace& place = recorded.spec.place;
    if (place.direction != Direction::consumer) continue;
    for (const std::string& stream : streams_of(recorded.result)) {
      auto entry = std::find_if(streams.begin(), streams.end(), [&](const StreamsPassed& seen) {
        return seen.device == recorded.spec.device && seen.memory == place.memory;
      });
      if (entry == streams.end()) {
        entry = streams.insert(streams.end(), {recorded.spec.device, place.memory, {}});
      }
      if (std::find(entry->passed.begin(), entry->passed.end(), stream) == entry->passed.end()) {
        entry->passed.push_back(stream);
      }
    }
  }
  return streams;
}

}  // namespace dlpack_usm::suite
