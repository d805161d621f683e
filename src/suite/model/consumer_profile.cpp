#include "suite/model/consumer_profile.hpp"

#include "rules/rule_ids.hpp"

#include <algorithm>

namespace dlpack_usm::suite {
namespace {

bool fired(const CaseResult& result, std::string_view rule) {
  return std::find(result.rule_ids.begin(), result.rule_ids.end(), rule) != result.rule_ids.end();
}

}  // namespace

const std::vector<std::string>& profile_axes() {
  static const std::vector<std::string> axes{"dtype", "layout", "usm-kind", "version", "invalid"};
  return axes;
}

std::string profile_class(const RecordedCase& recorded) {
  const CaseResult& result = recorded.result;
  if (recorded.spec.profile_axis.empty()) return {};
  // The worker judged the case (matrix/consumer_verdict); only a crash or a
  // hang, charged by the runner, comes without a class.
  if (!result.profile_class.empty()) return result.profile_class;
  namespace ids = rules::ids;
  if (fired(result, ids::kConsumerCallsNullDeleter)) return "deleter-misuse";
  if (result.outcome == Outcome::crash || fired(result, ids::kPluginCrashInvalid)) return "crash";
  if (result.outcome == Outcome::timeout || fired(result, ids::kPluginHangInvalid)) return "hang";
  return {};
}

std::vector<ProfileEntry> capability_profile(const CheckRun& run) {
  std::vector<ProfileEntry> profile;
  for (const RecordedCase& recorded : run.cases) {
    std::string outcome = profile_class(recorded);
    if (outcome.empty()) continue;
    const CaseResult& result = recorded.result;
    bool failed = is_failing(result.outcome, run.strict);
    profile.push_back({recorded.spec.device, recorded.spec.profile_axis,
                       recorded.spec.profile_value, outcome, result.id,
                       result.decline_reason.empty() ? result.message : result.decline_reason,
                       to_string(result.outcome), failed});
  }
  return profile;
}

}  // namespace dlpack_usm::suite
