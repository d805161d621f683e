#include "report/failure_groups.hpp"

#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlpack_usm::report {
namespace {

// Case ids a group shows before "and N more".
constexpr std::size_t kIdsShown = 3;
// Failure groups shown in full before the rest are counted.
constexpr std::size_t kGroupsShown = 8;

// The rules a case broke at its worst severity (the ones that decided its
// outcome), or the rules it names where it has no finding (a crash).
std::vector<std::string> deciding_rules(const suite::CaseResult& result) {
  std::set<std::string> rules;
  rules::Severity worst = rules::Severity::info;
  for (const suite::CaseFinding& finding : result.findings)
    worst = std::max(worst, finding.severity);
  for (const suite::CaseFinding& finding : result.findings) {
    if (finding.severity == worst && !finding.rule_id.empty()) rules.insert(finding.rule_id);
  }
  if (rules.empty()) rules.insert(result.rule_ids.begin(), result.rule_ids.end());
  return {rules.begin(), rules.end()};
}

using GroupKey = std::tuple<std::string, std::vector<std::string>, std::string>;

// Groups the cases `wanted` picks under `heading_of` their case.
template <typename Wanted, typename Heading>
std::vector<CaseGroup> group_cases(const suite::CheckRun& run, Wanted wanted, Heading heading_of) {
  std::vector<CaseGroup> groups;
  std::map<GroupKey, std::size_t> index;
  for (const suite::RecordedCase& recorded : run.cases) {
    if (!wanted(recorded)) continue;
    std::vector<std::string> rules = deciding_rules(recorded.result);
    GroupKey key{heading_of(recorded), rules, message_pattern(recorded.result.message)};
    auto [at, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({std::get<0>(key), rules, {}, false});
    CaseGroup& group = groups[at->second];
    if (!group.cases.empty() && group.cases.front()->result.message != recorded.result.message) {
      group.messages_vary = true;
    }
    group.cases.push_back(&recorded);
  }
  return groups;
}

std::string ids_line(const CaseGroup& group) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < group.cases.size() && i < kIdsShown; ++i) {
    ids.push_back(group.cases[i]->result.id);
  }
  std::string line = fmt::format("{}", fmt::join(ids, ", "));
  if (group.cases.size() > kIdsShown) {
    line += fmt::format(" and {} more", group.cases.size() - kIdsShown);
  }
  return line;
}

void print_group(Printer& printer, const CaseGroup& group) {
  const suite::RecordedCase& first = *group.cases.front();
  printer.line("");
  printer.line(fmt::format("{} \u00d7{}{}{}", group.heading, group.cases.size(),
                           group.rule_ids.empty() ? "" : "  ", fmt::join(group.rule_ids, ", ")));
  printer.line(fmt::format("  {}{}", first.result.message,
                           group.messages_vary ? " (the first; others differ in numbers)" : ""));
  printer.line(fmt::format("  cases: {}", ids_line(group)));
  printer.line(fmt::format("  repro: {}", first.repro));
  for (const std::string& rule : group.rule_ids) {
    printer.line(fmt::format("  see: dlpack-usm rules {}", rule));
  }
}

void print_warning_groups(Printer& printer, const suite::CheckRun& run) {
  std::vector<CaseGroup> warnings = group_warnings(run);
  if (warnings.empty()) return;
  std::size_t count = 0;
  for (const CaseGroup& group : warnings) count += group.cases.size();
  printer.line("");
  printer.line(fmt::format("warnings ({} in {} group{}; the gate passes them{}):", count,
                           warnings.size(), warnings.size() == 1 ? "" : "s",
                           run.strict ? "" : ", --strict fails them"));
  for (const CaseGroup& group : warnings) {
    printer.line(fmt::format(
        "  \u00d7{} {}: {} ({})", group.cases.size(), group.cases.front()->result.id,
        group.cases.front()->result.message,
        group.rule_ids.empty()
            ? std::string("no rule")
            : fmt::format("see: dlpack-usm rules {}", fmt::join(group.rule_ids, ", "))));
  }
}

}  // namespace

std::string message_pattern(std::string_view message) {
  std::string pattern;
  for (std::size_t i = 0; i < message.size(); ++i) {
    bool digit = std::isdigit(static_cast<unsigned char>(message[i])) != 0;
    if (!digit) {
      pattern += message[i];
    } else if (pattern.empty() || pattern.back() != '#') {
      pattern += '#';
    }
  }
  return pattern;
}

std::vector<CaseGroup> group_failures(const suite::CheckRun& run) {
  return group_cases(
      run, [](const suite::RecordedCase& c) { return c.result.verdict != suite::Verdict::ok; },
      [](const suite::RecordedCase& c) { return std::string(suite::to_string(c.result.verdict)); });
}

std::vector<CaseGroup> group_warnings(const suite::CheckRun& run) {
  return group_cases(
      run,
      [](const suite::RecordedCase& c) {
        return c.result.outcome == suite::Outcome::warn && c.result.verdict == suite::Verdict::ok;
      },
      [](const suite::RecordedCase&) { return std::string("warning"); });
}

void print_failure_groups(Printer& printer, const suite::CheckRun& run) {
  std::vector<CaseGroup> groups = group_failures(run);
  if (!groups.empty()) {
    std::size_t count = 0;
    for (const CaseGroup& group : groups) count += group.cases.size();
    printer.line("");
    printer.line(fmt::format("{} case{} not ok, in {} group{} (-v lists every case):", count,
                             count == 1 ? "" : "s", groups.size(), groups.size() == 1 ? "" : "s"));
    for (std::size_t g = 0; g < groups.size() && g < kGroupsShown; ++g)
      print_group(printer, groups[g]);
    if (groups.size() > kGroupsShown) {
      printer.line("");
      printer.line(
          fmt::format("and {} more groups (-v lists every case)", groups.size() - kGroupsShown));
    }
  }
  print_warning_groups(printer, run);
}

void print_rule_pointers(Printer& printer, const std::vector<CaseGroup>& groups) {
  std::set<std::string> seen;
  for (const CaseGroup& group : groups) {
    for (const std::string& rule : group.rule_ids) {
      if (seen.insert(rule).second) printer.line(fmt::format("see: dlpack-usm rules {}", rule));
    }
  }
}

}  // namespace dlpack_usm::report
