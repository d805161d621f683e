#include "exchange/rule_gate.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::exchange {

std::vector<rules::Finding> enforce_rules(const facts::TensorFacts& tensor,
                                          std::string_view action) {
  std::vector<rules::Finding> findings = rules::evaluate(tensor);
  if (!rules::has_errors(findings)) return findings;
  std::vector<const rules::Finding*> errors;
  for (const rules::Finding& finding : findings) {
    if (finding.severity == rules::Severity::error) errors.push_back(&finding);
  }
  std::string what = fmt::format("{} refused by rule {} ({}): {}", action, errors[0]->rule_id,
                                 errors[0]->field, errors[0]->message);
  for (std::size_t k = 1; k < errors.size(); ++k) {
    what += fmt::format("; and by rule {} ({}): {}", errors[k]->rule_id, errors[k]->field,
                        errors[k]->message);
  }
  throw Error(ExitCode::findings, std::move(what),
              "'dlpack-usm rules' prints what each rule requires and the text it comes from");
}

}  // namespace dlpack_usm::exchange
