#include "exchange/rule_gate.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/rule_refusal.hpp"

namespace dlpack_usm::exchange {

std::vector<rules::Finding> enforce_rules(const facts::TensorFacts& tensor,
                                          std::string_view action) {
  std::vector<rules::Finding> findings = rules::evaluate(tensor);
  if (!rules::has_errors(findings)) return findings;
  std::vector<const rules::Finding*> errors;
  std::vector<std::string> rule_ids;
  for (const rules::Finding& finding : findings) {
    if (finding.severity != rules::Severity::error) continue;
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
