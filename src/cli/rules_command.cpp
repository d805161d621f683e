// dlpack-usm rules: the rule catalog, whole or one family.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/error.hpp"
#include "report/rules_report.hpp"
#include "rules/rule.hpp"

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
      fail_usage(fmt::format("unknown rule family '{}'", family),
                 fmt::format("the families are: {}", family_list()));
    }
  }
  std::vector<const rules::RuleInfo*> selected;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    if (family.empty() || rule.family == family) selected.push_back(&rule);
  }
  return selected;
}

}  // namespace

void add_rules_command(CLI::App& app, Invocation& invocation) {
  auto* command = app.add_subcommand(
      "rules", "List the rule catalog: stable ids, severities, DLPack versions and sources");
  auto json = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  command->add_flag("--json", *json,
                    "Print the full catalog (spec text and source included) as one JSON document");
  command->add_option("--family", *family, "Only the rules of this family (" + family_list() + ")");
  command->callback([&invocation, json, family] {
    std::vector<const rules::RuleInfo*> selected = select_rules(*family);
    print_report(*json,
                 [&selected](report::Printer& printer) { report::print_rules(printer, selected); });
    invocation.exit_code = static_cast<int>(report::decide_exit_code(selected));
  });
}

}  // namespace dlpack_usm::cli
