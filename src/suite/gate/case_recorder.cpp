#include "suite/gate/case_recorder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rules/rule.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/vectors/vector_cases.hpp"
#include "suite/gate/repro_command.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {
namespace {

// The first of `required` that the case names, or nullptr.
const std::string* required_feature_of(const CaseSpec& spec,
                                       const std::vector<std::string>& required) {
  for (const std::string& feature : required) {
    if (std::find(spec.features.begin(), spec.features.end(), feature) != spec.features.end()) {
      return &feature;
    }
  }
  return nullptr;
}

// A case the worker judged (its own outcome: pass, warn, fail,
// not_supported) whose source says its outcome is its worst finding: the
// status and message the catalog's severities give, as every C++ case
// source's CaseFindings gives them. A decline or a clean pass keeps the
// worker's outcome and message.
CaseResult judged_by_findings(const CaseSpec& spec, CaseResult result) {
  bool judged = result.outcome == Outcome::pass || result.outcome == Outcome::warn ||
                result.outcome == Outcome::fail || result.outcome == Outcome::not_supported;
  if (!spec.outcome_from_findings || !judged || outcome_of(result.findings) == Outcome::pass) {
    return result;
  }
  CaseFindings found;
  for (const CaseFinding& finding : result.findings) {
    if (finding.rule_id.empty()) {
      found.add_failure(finding.message);
    } else {
      found.add(finding.rule_id, fmt::format("rule {}: {}", finding.rule_id, finding.message));
    }
  }
  CaseResult decided = found.result(result.id, result.message);
  result.outcome = decided.outcome;
  result.message = std::move(decided.message);
  return result;
}

bool fired(const CaseResult& result, std::string_view rule) {
  return std::find(result.rule_ids.begin(), result.rule_ids.end(), rule) != result.rule_ids.end();
}

// What the matrix shows for a case the runner charged: a consumer that
// calls the NULL deleter offered dies on the call, and a crash or a hang
// may have been made a warning (on an invalid tensor) by its rule.
ExchangeOutcome charged_exchange(const CaseResult& result) {
  namespace ids = rules::ids;
  if (fired(result, ids::kConsumerCallsNullDeleter)) return ExchangeOutcome::deleter_misuse;
  if (result.outcome == Outcome::crash || fired(result, ids::kPluginCrash) ||
      fired(result, ids::kPluginCrashInvalid)) {
    return ExchangeOutcome::crash;
  }
  if (result.outcome == Outcome::timeout || fired(result, ids::kPluginHang) ||
      fired(result, ids::kPluginHangInvalid)) {
    return ExchangeOutcome::hang;
  }
  return ExchangeOutcome::none;
}

}  // namespace

CaseResult apply_required_features(const CaseSpec& spec, CaseResult result,
                                   const std::vector<std::string>& required_features) {
  const std::string* feature = required_feature_of(spec, required_features);
  if (result.outcome != Outcome::not_supported || spec.decline_rule.empty() || feature == nullptr) {
    return result;
  }
  result.message = fmt::format("rule {}: --require {}, but the library declined: {}",
                               spec.decline_rule, *feature, result.message);
  result.add_finding({spec.decline_rule, catalog_severity(spec.decline_rule), result.message});
  result.outcome = outcome_of(result.findings);
  return result;
}

CaseRecorder::CaseRecorder(const CheckOptions& options, const Expectations& expectations)
    : options_(options),
      expectations_(expectations),
      default_suite_(options.suite_dir == default_conformance_dir()) {}

RecordedCase CaseRecorder::record(const CaseSpec& spec, CaseResult result) const {
  CaseResult decided = apply_required_features(spec, judged_by_findings(spec, std::move(result)),
                                               options_.required_features);
  // The source judged the exchange where the case ran to its end; a case
  // with a place that never reported is judged here.
  if (!spec.place.empty() && decided.exchange == ExchangeOutcome::none) {
    decided.exchange = charged_exchange(decided);
  }
  decided.verdict = decide_verdict(decided, expectations_, options_.strict);
  return {spec, std::move(decided), repro(spec, true)};
}

RecordedCase CaseRecorder::record_left_out(CaseSpec spec) const {
  CaseResult skipped{spec.id, Outcome::skipped, "left out by --filter, --rule or --device"};
  skipped.attempts = 0;
  std::string line = repro(spec, false);
  return {std::move(spec), std::move(skipped), std::move(line)};
}

std::string CaseRecorder::repro(const CaseSpec& spec, bool with_features) const {
  return repro_command(spec, options_.suite_dir, default_suite_, options_.plugins,
                       with_features ? options_.required_features : std::vector<std::string>{});
}

}  // namespace dlpack_usm::suite
