// `dlpack-usm rules ID` (and `explain ID`): one rule told whole — its title,
// its severity and what that rests on, the quoted sentence and where it is
// published, the tool's rationale, the vectors that fail and pass it, and a
// command to try. One walk; JSON swaps the printer.
#pragma once

#include <filesystem>
#include <vector>

#include "report/printer.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::report {

struct RuleExplanation {
  const rules::RuleInfo* rule = nullptr;
  std::vector<std::filesystem::path> failing_vectors;
  std::vector<std::filesystem::path> passing_vectors;
};

void print_rule_explanation(Printer& printer, const RuleExplanation& explanation);

}  // namespace dlpack_usm::report
