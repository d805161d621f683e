#include "suite/model/case.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr std::array<std::pair<Outcome, const char*>, 9> kOutcomeNames{{
    {Outcome::pass, "pass"},
    {Outcome::warn, "warn"},
    {Outcome::fail, "fail"},
    {Outcome::not_supported, "not_supported"},
    {Outcome::skipped, "skipped"},
    {Outcome::error, "error"},
    {Outcome::crash, "crash"},
    {Outcome::timeout, "timeout"},
    {Outcome::not_run, "not_run"},
}};

constexpr std::array<std::pair<Verdict, const char*>, 5> kVerdictNames{{
    {Verdict::ok, "ok"},
    {Verdict::expected_failure, "expected_failure"},
    {Verdict::flaky, "flaky"},
    {Verdict::unexpected_pass, "unexpected_pass"},
    {Verdict::regression, "regression"},
}};

}  // namespace

const char* to_string(Outcome outcome) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (value == outcome) return name;
  }
  return "error";
}

std::optional<Outcome> parse_outcome(std::string_view text) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

const char* to_string(Verdict verdict) {
  for (const auto& [value, name] : kVerdictNames) {
    if (value == verdict) return name;
  }
  return "regression";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
  for (const auto& [value, name] : kVerdictNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

void CaseSpec::throw_details_mismatch() const {
  throw Error(ExitCode::internal,
              fmt::format("case {} carries the details of another case source", id));
}

CaseResult not_supported_result(const CaseSpec& spec, const NotSupportedCase& not_supported) {
  CaseResult result(spec.id, Outcome::not_supported, not_supported.reason);
  result.rule_ids = not_supported.rule_ids;
  // Where the case has a place, the cell cannot be measured here (no USM, a
  // kind the device lacks, a runtime answer it rests on).
  if (!spec.place.empty()) result.exchange = ExchangeOutcome::not_applicable;
  return result;
}

bool is_failing(Outcome outcome, bool strict) {
  return outcome == Outcome::fail || outcome == Outcome::error || outcome == Outcome::crash ||
         outcome == Outcome::timeout || (strict && outcome == Outcome::warn);
}

void CaseResult::add_finding(CaseFinding finding) {
  if (!finding.rule_id.empty() &&
      std::find(rule_ids.begin(), rule_ids.end(), finding.rule_id) == rule_ids.end()) {
    rule_ids.push_back(finding.rule_id);
  }
  findings.push_back(std::move(finding));
}

Outcome outcome_of(const std::vector<CaseFinding>& findings) {
  Outcome outcome = Outcome::pass;
  for (const CaseFinding& finding : findings) {
    if (finding.severity == rules::Severity::error) return Outcome::fail;
    if (finding.severity == rules::Severity::warning) outcome = Outcome::warn;
  }
  return outcome;
}

rules::Severity catalog_severity(std::string_view rule_id) {
  const rules::RuleInfo* rule = rules::find_rule(rule_id);
  if (rule == nullptr) {
    throw Error(ExitCode::internal, fmt::format("rule {} is not in the catalog", rule_id));
  }
  return rule->severity;
}

}  // namespace dlpack_usm::suite
