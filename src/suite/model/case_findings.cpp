#include "suite/model/case_findings.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlpack_usm::suite {
namespace {

std::vector<std::string> messages_of(const std::vector<CaseFinding>& findings,
                                     rules::Severity severity) {
  std::vector<std::string> messages;
  for (const CaseFinding& finding : findings) {
    if (finding.severity == severity) messages.push_back(finding.message);
  }
  return messages;
}

}  // namespace

void CaseFindings::add(std::string_view rule_id, std::string message) {
  findings_.push_back({std::string(rule_id), catalog_severity(rule_id), std::move(message)});
}

void CaseFindings::add(const rules::Finding& finding, std::string message) {
  findings_.push_back({finding.rule_id, finding.severity, std::move(message)});
}

void CaseFindings::add_failure(std::string message) {
  findings_.push_back({{}, rules::Severity::error, std::move(message)});
}

bool CaseFindings::has_errors() const {
  return std::any_of(findings_.begin(), findings_.end(), [](const CaseFinding& finding) {
    return finding.severity == rules::Severity::error;
  });
}

CaseResult CaseFindings::result(const std::string& id, const std::string& pass_message) const {
  CaseResult result;
  result.id = id;
  for (const CaseFinding& finding : findings_) result.add_finding(finding);
  result.outcome = outcome_of(findings_);
  if (result.outcome == Outcome::fail) {
    result.message =
        fmt::format("{}", fmt::join(messages_of(findings_, rules::Severity::error), "; "));
    return result;
  }
  std::vector<std::string> warnings = messages_of(findings_, rules::Severity::warning);
  result.message = warnings.empty()
                       ? pass_message
                       : fmt::format("{}; warning: {}", pass_message, fmt::join(warnings, "; "));
  return result;
}

}  // namespace dlpack_usm::suite
