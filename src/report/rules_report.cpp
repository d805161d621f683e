#include "report/rules_report.hpp"

#include "report/envelope.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {

std::string version_range_display(const rules::RuleInfo& rule) {
  std::string since = dlpack::to_string(rule.since);
  if (!rule.until) return since + "+";
  if (*rule.until == rule.since) return since;
  return since + "-" + dlpack::to_string(*rule.until);
}

void print_rule(Printer& printer, const rules::RuleInfo& rule) {
  printer.field("rule_id", rule.id, rule.id);
  printer.field("family", rule.family, rule.family);
  printer.field("severity", rules::to_string(rule.severity), rules::to_string(rule.severity));
  printer.field("title", rule.title, rule.title);
  // Text shows the range in one column, machines its two ends.
  printer.field("since", dlpack::to_string(rule.since), version_range_display(rule));
  printer.data("until", rule.until ? Value(dlpack::to_string(*rule.until)) : Value(nullptr));
  printer.data("reference", rule.reference);
  // What the severity rests on: a word of the quote, a definition, a
  // convention or the tool's own judgement; text shows it as BASIS.
  printer.field("normative", rule.normative, rule.normative);
  printer.data("quote", rule.quote);
  printer.data("rationale", rule.rationale);
}

void print_rules(Printer& printer, const RuleSelection& rules) {
  print_envelope(printer, kRulesSchema);
  printer.data("model_release", dlpack::to_string(dlpack::kModelRelease));
  TextView table;
  table.columns = {{"ID", "rule_id"},    {"SEVERITY", "severity"}, {"BASIS", "normative"},
                   {"FAMILY", "family"}, {"VERSIONS", "since"},    {"TITLE", "title"}};
  ListScope list(printer, "rules", table);
  for (const rules::RuleInfo* rule : rules) {
    ObjectScope row(printer, {});
    print_rule(printer, *rule);
  }
}

nlohmann::ordered_json rules_to_json(RuleSelection rules) {
  return render_json(print_rules, rules);
}

}  // namespace dlpack_usm::report
