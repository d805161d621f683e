// The two writers of `dlpack-usm rules`: an aligned table for people and the
// full catalog (spec text and source included) as JSON for machines. Both
// only format the rules they are given.
#pragma once

#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/rule.hpp"

namespace dlpack_usm::report {

// "1.0+" for a rule that still applies, "0.1-1.1" for one that stopped,
// "1.0" for one that held in a single release.
std::string version_range_display(const rules::RuleInfo& rule);

nlohmann::ordered_json rule_to_json(const rules::RuleInfo& rule);
// {"model_release": "1.3", "rules": [...]}
nlohmann::ordered_json rules_to_json(std::span<const rules::RuleInfo* const> rules);
// Columns: id, severity, family, versions, title.
std::string rules_to_text(std::span<const rules::RuleInfo* const> rules);

}  // namespace dlpack_usm::report
