#include "report/formats/summary_markdown.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.hpp"
#include "report/failure_groups.hpp"
#include "report/formats/check_report.hpp"

namespace dlpack_usm::report {
namespace {

// Groups in a table, groups told in full, and case ids each names: a step
// summary is read at a glance (and GitHub keeps at most 1 MiB of it); the
// first groups are where to start, and the rest are in --failures and the
// JSON report.
constexpr std::size_t kGroupsTabled = 10;
constexpr std::size_t kGroupsTold = 3;
constexpr std::size_t kSummaryIdsNamed = 10;

std::string table_row(const std::vector<std::string>& cells) {
  std::vector<std::string> escaped;
  for (const std::string& cell : cells) escaped.push_back(markdown_text(cell));
  return fmt::format("| {} |\n", fmt::join(escaped, " | "));
}

// The first column is text, the others are counts (right-aligned).
std::string markdown_table(const TextTable& table) {
  std::string out = table_row(table.header());
  std::vector<std::string> rule(table.header().size(), "---:");
  if (!rule.empty()) rule.front() = "---";
  out += fmt::format("| {} |\n", fmt::join(rule, " | "));
  for (const std::vector<std::string>& row : table.rows()) out += table_row(row);
  return out;
}

std::string rules_text(const CaseGroup& group) {
  return group.rule_ids.empty() ? std::string("(no rule)")
                                : fmt::format("{}", fmt::join(group.rule_ids, ", "));
}

std::string message_of(const CaseGroup& group) {
  const suite::CaseResult& first = group.cases.front()->result;
  std::string message = first.message.empty() ? suite::to_string(first.outcome) : first.message;
  return group.messages_vary ? message + " (the first; others differ in numbers)" : message;
}

std::string markdown_ids_text(const CaseGroup& group) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < group.cases.size() && i < kSummaryIdsNamed; ++i) {
    ids.push_back(markdown_text(group.cases[i]->result.id));
  }
  std::string text = fmt::format("{}", fmt::join(ids, ", "));
  if (group.cases.size() > kSummaryIdsNamed) {
    text += fmt::format(" and {} more", group.cases.size() - kSummaryIdsNamed);
  }
  return text;
}

// Text inside an HTML block (<summary>), where Markdown's backslash escapes
// do not apply: every character HTML acts on is an entity, so a rule id or
// heading taken from an edited report adds no tag (an <img> GitHub renders).
std::string html_text(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One group told in full, folded: its cases, the repro of the first, and
// the rules to read.
std::string group_details(const CaseGroup& group) {
  const suite::RecordedCase& first = *group.cases.front();
  std::string out =
      fmt::format("<details><summary>{} \u00d7{} {}</summary>\n\n", html_text(group.heading),
                  group.cases.size(), html_text(rules_text(group)));
  // One paragraph and the repro: ten lines a group, so that three fit in a
  // summary read at a glance.
  out += fmt::format("Cases: {}.", markdown_ids_text(group));
  for (const std::string& rule : group.rule_ids) {
    out += fmt::format(" See `dlpack-usm rules {}`.", markdown_text(rule));
  }
  return out + fmt::format(" Repro:\n\n{}\n\n</details>\n\n", markdown_code_block(first.repro));
}

// Under a table cut at kGroupsTabled rows: how many groups it left out and
// where they all are.
std::string groups_left_text(std::size_t groups, std::string_view where) {
  if (groups <= kGroupsTabled) return {};
  std::size_t left = groups - kGroupsTabled;
  return fmt::format(
      "And {} more group{}: {}the JSON report (`--report FILE`) has every case "
      "with its findings, and `-v` prints each.\n\n",
      left, left == 1 ? "" : "s", where);
}

// The cases a stop left unrun: a line each stop, under the groups' table.
std::string stopped_text(const std::vector<StoppedCases>& stopped) {
  std::string out;
  for (const StoppedCases& stop : stopped) {
    out += fmt::format("{} case{} not run: {}.\n\n", stop.count, stop.count == 1 ? "" : "s",
                       markdown_text(stop.reason));
  }
  return out;
}

std::string failures_section(const std::vector<CaseGroup>& groups,
                             const std::vector<StoppedCases>& stopped) {
  if (groups.empty()) return stopped_text(stopped);
  std::size_t count = 0;
  for (const CaseGroup& group : groups) count += group.cases.size();
  std::size_t unrun = 0;
  for (const StoppedCases& stop : stopped) unrun += stop.count;
  std::string out = fmt::format("### {} case{} not ok, in {} group{}{}\n\n", count,
                                count == 1 ? "" : "s", groups.size(), groups.size() == 1 ? "" : "s",
                                unrun == 0 ? "" : fmt::format(", and {} not run", unrun));
  out += "| Verdict | Rule | Cases | Message |\n| --- | --- | ---: | --- |\n";
  for (std::size_t g = 0; g < groups.size() && g < kGroupsTabled; ++g) {
    const CaseGroup& group = groups[g];
    out += table_row(
        {group.heading, rules_text(group), std::to_string(group.cases.size()), message_of(group)});
  }
  out += "\n" + groups_left_text(groups.size(), "`--failures FILE` lists every failing case, ");
  out += stopped_text(stopped);
  for (std::size_t g = 0; g < groups.size() && g < kGroupsTold; ++g) {
    out += group_details(groups[g]);
  }
  return out;
}

std::string warnings_section(const std::vector<CaseGroup>& groups, bool strict) {
  if (groups.empty()) return {};
  std::size_t count = 0;
  for (const CaseGroup& group : groups) count += group.cases.size();
  std::string out = fmt::format("### {} warning{} (the gate passes them{})\n\n", count,
                                count == 1 ? "" : "s", strict ? "" : "; --strict fails them");
  out += "| Rule | Cases | First case | Message |\n| --- | ---: | --- | --- |\n";
  for (std::size_t g = 0; g < groups.size() && g < kGroupsTabled; ++g) {
    const CaseGroup& group = groups[g];
    out += table_row({rules_text(group), std::to_string(group.cases.size()),
                      group.cases.front()->result.id, message_of(group)});
  }
  return out + "\n" + groups_left_text(groups.size(), "");
}

}  // namespace

std::string markdown_text(std::string_view text) {
  // Control bytes and newlines first become visible escapes, one line.
  std::string shown = printable(text);
  std::string out;
  for (char c : shown) {
    if (c == '&') {
      out += "&amp;";
    } else if (std::string_view("\\`*_[]<>|~#!@").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string markdown_code_block(std::string_view text) {
  std::string shown = printable(text);
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : shown) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return fmt::format("{}sh\n{}\n{}", fence, shown, fence);
}

std::string check_run_markdown(const suite::CheckRun& run) {
  std::string out =
      fmt::format("## dlpack-usm: gate {}\n\n", run.gate_passed() ? "PASSED" : "FAILED");
  out += markdown_text(check_run_gate_line(run)) + "\n\n";
  TextTable devices = device_outcome_table(run);
  if (!devices.empty()) out += markdown_table(devices) + "\n";
  out += failures_section(group_failures(run), stopped_cases(run));
  out += warnings_section(group_warnings(run), run.strict);
  return out;
}

}  // namespace dlpack_usm::report
