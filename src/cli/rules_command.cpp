// dlpack-usm rules: the rule catalog, whole or one family, or one rule told
// whole (rules ID, explain ID).
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/error.hpp"
#include "common/suggest.hpp"
#include "report/rule_explanation.hpp"
#include "report/rules_report.hpp"
#include "rules/rule.hpp"
#include "suite/cases/vectors/vector_cases.hpp"

namespace dlpack_usm::cli {
namespace {

std::string family_list() {
  std::string text;
  for (std::string_view family : rules::rule_families()) {
    if (!text.empty()) text += ", ";
    text += family;
  }
  return text;
}

std::vector<const rules::RuleInfo*> select_rules(const std::string& family) {
  if (!family.empty()) {
    auto families = rules::rule_families();
    if (std::find(families.begin(), families.end(), family) == families.end()) {
      std::vector<std::string> names(families.begin(), families.end());
      fail_usage(fmt::format("unknown rule family '{}'{}", family, did_you_mean(family, names)),
                 fmt::format("the families are: {}", family_list()));
    }
  }
  std::vector<const rules::RuleInfo*> selected;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    if (family.empty() || rule.family == family) selected.push_back(&rule);
  }
  return selected;
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> ids;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) ids.emplace_back(rule.id);
  return ids;
}

// One rule told whole, with the vectors of the shipped suite.
void explain_rule(const std::string& id, bool json) {
  const rules::RuleInfo* rule = rules::find_rule(id);
  if (rule == nullptr) {
    fail_usage(fmt::format("no rule has the id '{}'{}", id, did_you_mean(id, rule_ids())),
               "'dlpack-usm rules' lists the rule ids");
  }
  suite::RuleVectors vectors = suite::vectors_of_rule(suite::default_conformance_dir(), rule->id);
  report::RuleExplanation explanation{rule, vectors.failing, vectors.passing};
  print_report(json, [&explanation](report::Printer& printer) {
    report::print_rule_explanation(printer, explanation);
  });
}

}  // namespace

// dlpack-usm explain ID: the same as `rules ID`, under the name people try.
void add_explain_command(CLI::App& app, Invocation& invocation) {
  auto* command = app.add_subcommand("explain", "Explain one rule: the same as 'rules ID'");
  auto json = std::make_shared<bool>(false);
  auto id = std::make_shared<std::string>();
  command->add_option("ID", *id, "The rule's id, as findings name it (DLP-STRIDES-NULL)")
      ->required()
      ->type_name("");
  command->add_flag("--json", *json, "Print it as one JSON document");
  command->callback([&invocation, json, id] {
    explain_rule(*id, *json);
    invocation.exit_code = 0;
  });
}

void add_rules_command(CLI::App& app, Invocation& invocation) {
  auto* command = app.add_subcommand(
      "rules", "List the rule catalog: stable ids, severities, DLPack versions and sources");
  auto json = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  command->add_flag("--json", *json,
                    "Print the full catalog (spec text and source included) as one JSON document");
  command->add_option("--family", *family, "Only the rules of this family (" + family_list() + ")")
      ->type_name("FAMILY");
  auto id = std::make_shared<std::string>();
  command->add_option("ID", *id, "One rule told whole: its quote, reference, rationale and vectors")
      ->type_name("");
  command->callback([&invocation, json, family, id] {
    if (!id->empty()) {
      if (!family->empty()) fail_usage("--family lists rules, ID explains one", "choose one");
      explain_rule(*id, *json);
      invocation.exit_code = 0;
      return;
    }
    std::vector<const rules::RuleInfo*> selected = select_rules(*family);
    print_report(*json,
                 [&selected](report::Printer& printer) { report::print_rules(printer, selected); });
    invocation.exit_code = static_cast<int>(report::decide_exit_code(selected));
  });
}

}  // namespace dlpack_usm::cli
