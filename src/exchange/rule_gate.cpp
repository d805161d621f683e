#include "exchange/rule_gate.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange/rule_refusal.hpp"

namespace dlpack_usm::exchange {

namespace {

// The tool's own export and import read memory through what they accept:
// they refuse a malformed tensor (an error: a value outside what its field
// defines, or a must broken) and one whose shape and strides the facts
// reader left unread (its dimension limit). A convention broken (a warning,
// such as data not NULL on a size-0 tensor, which numpy and cupy export)
// misplaces no element, so they pass it on with its findings: a consumer may
// decline those tensors, but not inconsistently.
bool refused(const rules::Finding& finding) {
  return finding.severity == rules::Severity::error || finding.rule_id == rule_ids::kNdimLimit;
}

}  // namespace

std::vector<rules::Finding> enforce_rules(const facts::TensorFacts& tensor,
                                          std::string_view action) {
  std::vector<rules::Finding> findings = rules::evaluate(tensor);
  if (std::none_of(findings.begin(), findings.end(), refused)) return findings;
  std::vector<const rules::Finding*> errors;
  std::vector<std::string> rule_ids;
  for (const rules::Finding& finding : findings) {
    if (!refused(finding)) continue;
    errors.push_back(&finding);
    rule_ids.push_back(finding.rule_id);
  }
  std::string what = fmt::format("{} refused by rule {} ({}): {}", action, errors[0]->rule_id,
                                 errors[0]->field, errors[0]->message);
  for (std::size_t k = 1; k < errors.size(); ++k) {
    what += fmt::format("; and by rule {} ({}): {}", errors[k]->rule_id, errors[k]->field,
                        errors[k]->message);
  }
  throw RuleRefusal(std::move(rule_ids), std::move(what),
                    "'dlpack-usm rules' prints what each rule requires and the text it comes from");
}

}  // namespace dlpack_usm::exchange
