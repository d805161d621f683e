#include "bridge/run_summary.hpp"

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/json_member.hpp"
#include "report/failure_groups.hpp"
#include "report/formats/check_report.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/expectations.hpp"

namespace dlpack_usm::bridge {
namespace {

using nlohmann::json;

constexpr const char* kRequestHint =
    "describe the cases as include/dlpack_usm/bridge.h says (dlpack_usm_bridge_run_summary)";

[[noreturn]] void fail_request(const std::string& what) {
  fail_usage(fmt::format("run summary request: {}", what), kRequestHint);
}

template <typename T>
T member_or(const json& object, const char* key, T fallback) {
  return json_member_or(object, key, std::move(fallback), "run summary request", kRequestHint);
}

report::SummaryDetail parse_detail(const std::string& text) {
  if (text == "quiet") return report::SummaryDetail::quiet;
  if (text == "grouped") return report::SummaryDetail::grouped;
  if (text == "every_case") return report::SummaryDetail::every_case;
  fail_request(fmt::format("'{}' is no detail: quiet, grouped or every_case", text));
}

suite::CaseFinding finding_from_json(const json& object) {
  if (!object.is_object()) fail_request("a finding is not a JSON object");
  std::string severity_text = member_or<std::string>(object, "severity", "error");
  std::optional<rules::Severity> severity = rules::parse_severity(severity_text);
  if (!severity) fail_request(fmt::format("'{}' is no severity", severity_text));
  return {member_or<std::string>(object, "rule_id", ""), *severity,
          member_or<std::string>(object, "message", "")};
}

suite::RecordedCase case_from_json(const json& object, bool strict) {
  if (!object.is_object()) fail_request("a case is not a JSON object");
  std::string outcome_text = member_or<std::string>(object, "outcome", "");
  std::optional<suite::Outcome> outcome = suite::parse_outcome(outcome_text);
  if (!outcome || *outcome == suite::Outcome::skipped) {
    fail_request(fmt::format("'{}' is no outcome of a case that ran", outcome_text));
  }
  suite::RecordedCase recorded;
  recorded.spec.id = member_or<std::string>(object, "id", "");
  recorded.spec.rules = member_or<std::vector<std::string>>(object, "rules", {});
  recorded.result =
      suite::CaseResult(recorded.spec.id, *outcome, member_or<std::string>(object, "message", ""));
  recorded.result.duration_ms = member_or<double>(object, "duration_ms", 0);
  for (const json& finding : member_or<json>(object, "findings", json::array())) {
    recorded.result.add_finding(finding_from_json(finding));
  }
  recorded.result.verdict = suite::decide_verdict(recorded.result, {}, strict);
  recorded.repro = member_or<std::string>(object, "repro", "");
  return recorded;
}

}  // namespace

nlohmann::ordered_json run_summary_json(std::string_view request) {
  json document = json::parse(request, nullptr, false);
  if (!document.is_object()) fail_request("not a JSON object");
  json cases = member_or<json>(document, "cases", json::array());
  if (!cases.is_array()) fail_request("'cases' is not a list");
  suite::CheckRun run;
  run.strict = member_or<bool>(document, "strict", false);
  run.duration_ms = member_or<double>(document, "duration_ms", 0);
  run.stop_reasons = member_or<std::vector<std::string>>(document, "stop_reasons", {});
  for (const json& object : cases) {
    run.cases.push_back(case_from_json(object, run.strict));
    run.interrupted = run.interrupted || run.cases.back().result.outcome == suite::Outcome::not_run;
  }
  report::SummaryDetail detail =
      parse_detail(member_or<std::string>(document, "detail", "grouped"));
  return {{"text", report::run_ending_summary(run, detail)},
          {"gate", run.gate_passed() ? "passed" : "failed"},
          {"verdicts", report::verdict_counts_json(run.verdict_counts())}};
}

}  // namespace dlpack_usm::bridge
