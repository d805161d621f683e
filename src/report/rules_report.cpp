#include "report/rules_report.hpp"

#include "report/text_table.hpp"

namespace dlpack_usm::report {

std::string version_range_display(const rules::RuleInfo& rule) {
  std::string since = dl::to_string(rule.since);
  if (!rule.until) return since + "+";
  if (*rule.until == rule.since) return since;
  return since + "-" + dl::to_string(*rule.until);
}

nlohmann::ordered_json rule_to_json(const rules::RuleInfo& rule) {
  nlohmann::ordered_json json;
  json["rule_id"] = rule.id;
  json["family"] = rule.family;
  json["severity"] = rules::to_string(rule.severity);
  json["title"] = rule.title;
  json["since"] = dl::to_string(rule.since);
  json["until"] = rule.until ? nlohmann::ordered_json(dl::to_string(*rule.until)) : nullptr;
  json["reference"] = rule.reference;
  json["normative"] = rule.normative;
  json["quote"] = rule.quote;
  json["rationale"] = rule.rationale;
  return json;
}

nlohmann::ordered_json rules_to_json(std::span<const rules::RuleInfo* const> rules) {
  nlohmann::ordered_json json;
  json["model_release"] = dl::to_string(dl::kModelRelease);
  json["rules"] = nlohmann::ordered_json::array();
  for (const rules::RuleInfo* rule : rules) json["rules"].push_back(rule_to_json(*rule));
  return json;
}

std::string rules_to_text(std::span<const rules::RuleInfo* const> rules) {
  TextTable table({"ID", "SEVERITY", "FAMILY", "VERSIONS", "TITLE"});
  for (const rules::RuleInfo* rule : rules) {
    table.add_row({std::string(rule->id), rules::to_string(rule->severity),
                   std::string(rule->family), version_range_display(*rule),
                   std::string(rule->title)});
  }
  return table.render();
}

}  // namespace dlpack_usm::report
