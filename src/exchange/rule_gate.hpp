// The rule engine as a gate: export and import both evaluate every rule on
// the live facts of a tensor and refuse it when any warning or error remains.
#pragma once

#include <string_view>
#include <vector>

#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::exchange {

// Returns the findings (infos only) when none is a warning or an error;
// throws Error(findings) naming those rules otherwise. `action` says
// what was refused: "export", "import".
std::vector<rules::Finding> enforce_rules(const facts::TensorFacts& tensor,
                                          std::string_view action);

}  // namespace dlpack_usm::exchange
