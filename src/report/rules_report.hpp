// `dlpack-usm rules`: the one walk over the rule catalog, an aligned table for
// people and the full catalog (spec text and source included) as JSON for
// machines. It only formats the rules it is given.
#pragma once

#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "report/printer.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::report {

// The rules a command prints.
using RuleSelection = std::span<const rules::RuleInfo* const>;

// "1.0+" for a rule that still applies, "0.1-1.1" for one that stopped,
// "1.0" for one that held in a single release.
std::string version_range_display(const rules::RuleInfo& rule);

// Listing the catalog never fails (an unknown family is a usage error before it).
inline ExitCode decide_exit_code(RuleSelection) {
  return ExitCode::ok;
}

// {"model_release": "1.3", "rules": [...]}; in text a table with the columns
// id, severity, family, versions, title.
void print_rules(Printer& printer, const RuleSelection& rules);
// One rule's fields, in the object the caller opened.
void print_rule(Printer& printer, const rules::RuleInfo& rule);

nlohmann::ordered_json rules_to_json(RuleSelection rules);

}  // namespace dlpack_usm::report
