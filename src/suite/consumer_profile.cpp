#include "suite/consumer_profile.hpp"

#include <algorithm>

namespace dlpack_usm::suite {
namespace {

bool fired(const CaseResult& result, std::string_view rule) {
  return std::find(result.rule_ids.begin(), result.rule_ids.end(), rule) != result.rule_ids.end();
}

// "declined as not supported (REASON); the deleter ran once" -> "REASON".
std::string decline_reason(const std::string& message) {
  constexpr std::string_view kPrefix = "declined as not supported (";
  std::size_t end = message.rfind(");");
  if (!message.starts_with(kPrefix) || end == std::string::npos || end < kPrefix.size()) {
    return message;
  }
  return message.substr(kPrefix.size(), end - kPrefix.size());
}

}  // namespace

const std::vector<std::string>& profile_axes() {
  static const std::vector<std::string> axes{"dtype", "layout", "usm-kind", "version", "invalid"};
  return axes;
}

std::string profile_class(const RecordedCase& recorded) {
  const CaseResult& result = recorded.result;
  if (recorded.spec.profile_axis.empty()) return {};
  bool invalid = recorded.spec.profile_axis == "invalid";
  switch (result.outcome) {
    case Outcome::pass:
      return invalid ? "refused" : "accepted";
    case Outcome::not_supported:
      // An invalid case is not_supported only where the runtime cannot make
      // it (nothing was offered): no class.
      return invalid ? std::string() : std::string("declined");
    case Outcome::timeout:
      return "hang";
    case Outcome::crash:
      return fired(result, "DLP-CONSUMER-CALLS-NULL-DELETER") ? "deleter-misuse" : "crash";
    case Outcome::fail:
      // One class per case, the gravest first when several rules fired.
      if (fired(result, "DLP-CONSUMER-ACCEPTS-INVALID")) return "accepted-invalid";
      if (fired(result, "DLP-CONSUMER-DELETER-COUNT")) return "deleter-misuse";
      // A rejected valid tensor, or a decline of a feature --require names.
      if (fired(result, "DLP-CONSUMER-REJECTS-VALID")) return "declined";
      return "wrong";
    default:
      return {};
  }
}

std::vector<ProfileEntry> capability_profile(const CheckRun& run) {
  std::vector<ProfileEntry> profile;
  for (const RecordedCase& recorded : run.cases) {
    std::string outcome = profile_class(recorded);
    if (outcome.empty()) continue;
    const CaseResult& result = recorded.result;
    bool failed = is_failing(result.outcome);
    profile.push_back(
        {recorded.spec.device, recorded.spec.profile_axis, recorded.spec.profile_value, outcome,
         result.id,
         outcome == "declined" && !failed ? decline_reason(result.message) : result.message,
         failed});
  }
  return profile;
}

}  // namespace dlpack_usm::suite
