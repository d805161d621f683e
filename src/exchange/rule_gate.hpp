// The rule engine as a gate: export and import both evaluate every rule on
// the live facts of a tensor and refuse it when an error remains, or when the
// facts reader could not read it whole.
#pragma once

#include <string_view>
#include <vector>

#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::exchange {

// Returns the findings (warnings and infos) when none is refused; throws
// Error(findings) naming the refused rules otherwise. `action` says
// what was refused: "export", "import".
std::vector<rules::Finding> enforce_rules(const facts::TensorFacts& tensor,
                                          std::string_view action);

}  // namespace dlpack_usm::exchange
