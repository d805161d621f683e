#include "report/failure_groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/words.hpp"
#include "suite/model/result_wording.hpp"

namespace dlpack_usm::report {
namespace {

using suite::RecordedCase;
using suite::Verdict;

// Case ids a group shows before "and N more".
constexpr std::size_t kIdsShown = 3;
// Failure groups shown in full before the rest are counted.
constexpr std::size_t kGroupsShown = 8;
// Findings of a case shown under its message.
constexpr std::size_t kFindingsShown = 3;

bool ran(const RecordedCase& recorded) {
  return recorded.result.outcome != suite::Outcome::skipped;
}

// Groups whose cases fail the gate come first.
int verdict_rank(std::string_view heading) {
  static constexpr std::string_view kOrder[] = {"regression", "unexpected_pass", "flaky",
                                                "expected_failure"};
  for (int rank = 0; rank < 4; ++rank) {
    if (kOrder[rank] == heading) return rank;
  }
  return 4;
}

// The suffix a stop adds to a failure whose re-run it cut short: the
// failure is the one it was before the stop.
std::string_view without_cut_re_run(std::string_view message) {
  std::size_t at = message.rfind(suite::kCutReRunOpening);
  if (at == std::string_view::npos || message.back() != ')') return message;
  return message.substr(0, at);
}

// Whether `reason`, one of the run's stop_reasons, left `recorded` unrun: a
// case turned away by a stop has the reason as its message (a merged run
// labels both alike, report_merge.cpp).
bool left_unrun_by(const RecordedCase& recorded, std::string_view reason) {
  return recorded.result.outcome == suite::Outcome::not_run && recorded.result.message == reason;
}

bool left_unrun_by_a_stop(const suite::CheckRun& run, const RecordedCase& recorded) {
  return std::any_of(run.stop_reasons.begin(), run.stop_reasons.end(),
                     [&](const std::string& reason) { return left_unrun_by(recorded, reason); });
}

// A message with every case id of the run in it made one mark: a library
// that writes a forged result names the case it forges, and a state bug
// names the case that ran before; each case's message then differs in an
// id, where the bug is one. An id is a word of the message between blanks,
// quotes, backslashes and punctuation that is no part of an id.
std::string without_case_ids(std::string_view message,
                             const std::unordered_set<std::string_view>& ids) {
  constexpr std::string_view kAround = " \t\n'\"\\,;()[]{}";
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    std::size_t end = message.find_first_of(kAround, at);
    if (end == std::string_view::npos) end = message.size();
    std::string_view word = message.substr(at, end - at);
    // An id ending a clause: "... after ID:" or "ID." keeps its mark.
    std::string_view id = word;
    while (!id.empty() && (id.back() == ':' || id.back() == '.')) id.remove_suffix(1);
    if (!id.empty() && id.find('/') != std::string_view::npos && ids.count(id) != 0) {
      out += "<case>";
      out += word.substr(id.size());
    } else {
      out += word;
    }
    if (end < message.size()) out += message[end];
    at = end + 1;
  }
  return out;
}

// A state bug's message says how its case ended in a fresh process
// ("... it ended pass;"), which depends on the case, not on the bug: one
// mark.
std::string without_fresh_outcome(std::string message) {
  std::size_t at = message.find(suite::kFreshProcessEnded);
  if (at == std::string::npos) return message;
  at += suite::kFreshProcessEnded.size();
  std::size_t end = message.find(';', at);
  if (end == std::string::npos) return message;
  return message.replace(at, end - at, "<outcome>");
}

using GroupKey = std::tuple<std::string, std::vector<std::string>, std::string>;

// Groups the cases `wanted` picks under `heading_of` their case.
template <typename Wanted, typename Heading>
std::vector<CaseGroup> group_cases(const suite::CheckRun& run, Wanted wanted, Heading heading_of) {
  std::vector<CaseGroup> groups;
  std::map<GroupKey, std::size_t> index;
  std::vector<std::string> first_messages;  // of each group, ids made marks
  std::unordered_set<std::string_view> ids;
  for (const RecordedCase& recorded : run.cases) ids.insert(recorded.result.id);
  for (const RecordedCase& recorded : run.cases) {
    if (!ran(recorded) || !wanted(recorded)) continue;
    std::vector<std::string> rules = deciding_rules(recorded);
    std::string message =
        without_fresh_outcome(without_case_ids(without_cut_re_run(recorded.result.message), ids));
    GroupKey key{heading_of(recorded), rules, message_pattern(message)};
    auto [at, added] = index.emplace(key, groups.size());
    if (added) {
      groups.push_back({std::get<0>(key), rules, {}, false});
      first_messages.push_back(message);
    }
    CaseGroup& group = groups[at->second];
    // Ids differ from case to case; numbers are worth a remark.
    if (first_messages[at->second] != message) group.messages_vary = true;
    group.cases.push_back(&recorded);
  }
  return groups;
}

std::string ids_text(const CaseGroup& group) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < group.cases.size() && i < kIdsShown; ++i) {
    ids.push_back(group.cases[i]->result.id);
  }
  std::string text = fmt::format("{}", fmt::join(ids, ", "));
  if (group.cases.size() > kIdsShown) {
    text += fmt::format(" and {} more", group.cases.size() - kIdsShown);
  }
  return text;
}

// "crash", or "timeout, then crash on re-run" where a re-run ended otherwise.
std::string attempts_text(const suite::CaseResult& result) {
  std::string outcome = suite::to_string(result.outcome);
  if (!result.first_outcome || *result.first_outcome == result.outcome) return outcome;
  return fmt::format("{}, then {} on re-run", suite::to_string(*result.first_outcome), outcome);
}

std::string duration_text(double milliseconds) {
  return milliseconds >= 1000 ? fmt::format("{:.1f} s", milliseconds / 1000)
                              : fmt::format("{:.0f} ms", milliseconds);
}

// The findings of a case its message does not already say (a vector that
// fired another rule: which field, what value): their rule, severity and
// message.
void print_unsaid_findings(Printer& printer, const suite::CaseResult& result) {
  std::vector<const suite::CaseFinding*> unsaid;
  for (const suite::CaseFinding& finding : result.findings) {
    if (finding.rule_id.empty() || result.message.find(finding.message) != std::string::npos) {
      continue;
    }
    unsaid.push_back(&finding);
  }
  for (std::size_t i = 0; i < unsaid.size() && i < kFindingsShown; ++i) {
    printer.line(fmt::format("  finding: {} ({}): {}", unsaid[i]->rule_id,
                             rules::to_string(unsaid[i]->severity), unsaid[i]->message));
  }
  if (unsaid.size() > kFindingsShown) {
    printer.line(fmt::format("  and {} more", plural(unsaid.size() - kFindingsShown, "finding")));
  }
}

void print_rule_pointers(Printer& printer, const std::vector<std::string>& rule_ids,
                         std::string_view indent) {
  for (const std::string& rule : rule_ids) {
    printer.line(fmt::format("{}see: dlpack-usm rules {}", indent, rule));
  }
}

// Under a crash's or hang's repro line, the standalone snippet of its case,
// where it has one: each line whole, to be pasted.
void print_snippet(Printer& printer, const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  bool charged = result.outcome == suite::Outcome::crash ||
                 result.outcome == suite::Outcome::timeout ||
                 result.exchange == suite::ExchangeOutcome::crash ||
                 result.exchange == suite::ExchangeOutcome::hang;
  if (!charged || recorded.spec.snippet.empty()) return;
  printer.line("  standalone (no tool around it: paste the lines below into a shell):");
  // Not indented: a here-document's end line must start its line.
  std::string_view rest = recorded.spec.snippet;
  while (!rest.empty()) {
    std::size_t end = std::min(rest.find('\n'), rest.size());
    printer.whole_line(std::string(rest.substr(0, end)));
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
}

void print_group(Printer& printer, const CaseGroup& group) {
  const RecordedCase& first = *group.cases.front();
  printer.line("");
  printer.line(fmt::format("{}: {}, {}", group.heading, plural(group.cases.size(), "case"),
                           attempts_text(first.result)));
  printer.line(fmt::format("  {}", first.result.message));
  print_unsaid_findings(printer, first.result);
  printer.line(fmt::format("  {}: {}{}", group.cases.size() == 1 ? "case" : "cases",
                           ids_text(group),
                           group.messages_vary ? " (their messages differ in numbers)" : ""));
  printer.whole_line(fmt::format("  repro: {}", first.repro));
  print_snippet(printer, first);
  print_rule_pointers(printer, group.rule_ids, "  ");
}

// The block of one case, as -v prints every failing case.
void print_case_block(Printer& printer, const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  printer.line("");
  printer.line(fmt::format("{} {}: {} ({})", suite::to_string(result.verdict), result.id,
                           attempts_text(result), duration_text(result.duration_ms)));
  printer.line(fmt::format("  {}", result.message));
  print_unsaid_findings(printer, result);
  printer.whole_line(fmt::format("  repro: {}", recorded.repro));
  print_snippet(printer, recorded);
  print_rule_pointers(printer, deciding_rules(recorded), "  ");
}

// The "and N more groups" line under the groups shown, where some are not.
void print_groups_left(Printer& printer, std::size_t groups, std::string_view indent) {
  if (groups <= kGroupsShown) return;
  std::size_t left = groups - kGroupsShown;
  printer.line(fmt::format("{}and {} more group{} (-v lists each case)", indent, left,
                           left == 1 ? "" : "s"));
}

// The groups, under a line that counts their cases and those a stop left
// unrun (which the stop's own line tells of, under the groups).
void print_grouped_failures(Printer& printer, const std::vector<CaseGroup>& groups,
                            std::size_t stopped) {
  if (groups.empty()) return;
  std::size_t count = 0;
  for (const CaseGroup& group : groups) count += group.cases.size();
  printer.line("");
  printer.line(fmt::format("{} not ok, in {}{} (-v lists each case):", plural(count, "case"),
                           plural(groups.size(), "group"),
                           stopped == 0 ? "" : fmt::format(", and {} not run", stopped)));
  for (std::size_t g = 0; g < groups.size() && g < kGroupsShown; ++g) {
    print_group(printer, groups[g]);
  }
  if (groups.size() > kGroupsShown) printer.line("");
  print_groups_left(printer, groups.size(), "");
}

// A line per group of warnings, capped as the failures are: a library with
// one bug that only warns gives as many groups as one that fails.
void print_warning_groups(Printer& printer, const std::vector<CaseGroup>& groups) {
  for (std::size_t g = 0; g < groups.size() && g < kGroupsShown; ++g) {
    const CaseGroup& group = groups[g];
    const suite::CaseResult& first = group.cases.front()->result;
    printer.line(fmt::format("  {}{}: {}", first.id,
                             group.cases.size() == 1
                                 ? std::string()
                                 : fmt::format(" and {} more alike", group.cases.size() - 1),
                             first.message));
    print_rule_pointers(printer, group.rule_ids, "    ");
  }
  print_groups_left(printer, groups.size(), "  ");
}

void print_warnings(Printer& printer, const suite::CheckRun& run, SummaryDetail detail) {
  std::vector<CaseGroup> groups = group_warnings(run);
  if (groups.empty()) return;
  std::size_t count = 0;
  for (const CaseGroup& group : groups) count += group.cases.size();
  printer.line("");
  printer.line(fmt::format("warnings ({}{}; the gate passes them{}):", count,
                           detail == SummaryDetail::grouped
                               ? fmt::format(" in {}", plural(groups.size(), "group"))
                               : std::string(),
                           run.strict ? "" : ", --strict fails them"));
  if (detail == SummaryDetail::grouped) {
    print_warning_groups(printer, groups);
    return;
  }
  std::set<std::string> rules;
  for (const CaseGroup& group : groups) {
    for (const RecordedCase* recorded : group.cases) {
      printer.line(fmt::format("  {}: {}", recorded->result.id, recorded->result.message));
    }
    rules.insert(group.rule_ids.begin(), group.rule_ids.end());
  }
  print_rule_pointers(printer, {rules.begin(), rules.end()}, "  ");
}

// -v: the info findings of the cases that passed, which no other part of
// the summary shows (a heuristic's remark on a library's tensor, such as an
// alignment below 256 bytes, is worth a look and never fails the gate).
void print_infos(Printer& printer, const suite::CheckRun& run) {
  std::vector<std::pair<const RecordedCase*, const suite::CaseFinding*>> infos;
  for (const RecordedCase& recorded : run.cases) {
    if (!ran(recorded) || recorded.result.outcome != suite::Outcome::pass) continue;
    for (const suite::CaseFinding& finding : recorded.result.findings) {
      if (finding.severity == rules::Severity::info) infos.emplace_back(&recorded, &finding);
    }
  }
  if (infos.empty()) return;
  printer.line("");
  printer.line(fmt::format("infos ({}; they never fail the gate):", infos.size()));
  std::set<std::string> rules;
  for (const auto& [recorded, finding] : infos) {
    printer.line(
        fmt::format("  {}: {}: {}", recorded->result.id, finding->rule_id, finding->message));
    rules.insert(finding->rule_id);
  }
  print_rule_pointers(printer, {rules.begin(), rules.end()}, "  ");
}

}  // namespace

std::vector<std::string> deciding_rules(const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  std::set<std::string> rules;
  rules::Severity worst = rules::Severity::info;
  bool tool_check = false;
  for (const suite::CaseFinding& finding : result.findings) {
    worst = std::max(worst, finding.severity);
    tool_check = tool_check || finding.rule_id.empty();
  }
  for (const suite::CaseFinding& finding : result.findings) {
    if (finding.severity == worst && !finding.rule_id.empty()) rules.insert(finding.rule_id);
  }
  if (tool_check) {
    rules.insert(recorded.spec.rules.begin(), recorded.spec.rules.end());
  } else if (rules.empty()) {
    rules.insert(result.rule_ids.begin(), result.rule_ids.end());
  }
  return {rules.begin(), rules.end()};
}

std::vector<CaseGroup> group_failures(const suite::CheckRun& run) {
  std::vector<CaseGroup> groups = group_cases(
      run,
      [&run](const RecordedCase& c) {
        return c.result.verdict != Verdict::ok && !left_unrun_by_a_stop(run, c);
      },
      [](const RecordedCase& c) { return std::string(suite::to_string(c.result.verdict)); });
  std::stable_sort(groups.begin(), groups.end(), [](const CaseGroup& a, const CaseGroup& b) {
    return verdict_rank(a.heading) < verdict_rank(b.heading);
  });
  return groups;
}

std::vector<StoppedCases> stopped_cases(const suite::CheckRun& run) {
  std::vector<StoppedCases> stopped;
  for (const std::string& reason : run.stop_reasons) {
    auto count = std::count_if(run.cases.begin(), run.cases.end(),
                               [&](const RecordedCase& c) { return left_unrun_by(c, reason); });
    if (count > 0) stopped.push_back({reason, static_cast<std::size_t>(count)});
  }
  return stopped;
}

std::size_t stopped_case_count(const suite::CheckRun& run) {
  std::size_t count = 0;
  for (const StoppedCases& stop : stopped_cases(run)) count += stop.count;
  return count;
}

std::vector<CaseGroup> group_warnings(const suite::CheckRun& run) {
  return group_cases(
      run,
      [](const RecordedCase& c) {
        return c.result.outcome == suite::Outcome::warn && c.result.verdict == Verdict::ok;
      },
      [](const RecordedCase&) { return std::string("warning"); });
}

void print_failures(Printer& printer, const suite::CheckRun& run, SummaryDetail detail) {
  if (detail == SummaryDetail::quiet) return;
  if (detail == SummaryDetail::grouped) {
    print_grouped_failures(printer, group_failures(run), stopped_case_count(run));
  } else {
    for (const RecordedCase& recorded : run.cases) {
      if (ran(recorded) && recorded.result.verdict != Verdict::ok) {
        print_case_block(printer, recorded);
      }
    }
  }
  print_warnings(printer, run, detail);
  if (detail == SummaryDetail::every_case) print_infos(printer, run);
}

}  // namespace dlpack_usm::report
