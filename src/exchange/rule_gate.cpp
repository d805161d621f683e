#include "exchange/rule_gate.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/rule_refusal.hpp"

namespace dlpack_usm::exchange {

namespace {

// The tool's own export and import are a reference for others, and read
// memory through what they accept: they refuse every defect, warnings
// included (most rules rest on no "must" and are warnings for others'
// tensors, yet an element outside the allocation is still unreadable).
bool refused(const rules::Finding& finding) {
  return finding.severity != rules::Severity::info;
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
