// What people read of a run's failures and warnings: one block per kind of
// failure instead of one per case. A producer with one bug fails dozens of
// cases with one rule and one message that differs only in its numbers and
// the case ids it names; those are one group, with its count, its first
// case ids, one repro line and the rule to read. `-v` prints every case
// instead, `-q` neither (the gate line alone); JSON, JUnit and
// results.jsonl always hold every case.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/message_pattern.hpp"
#include "report/printer.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

// How much of a run's cases the text summary shows (check and report merge
// -q / default / -v, and Python's consume).
enum class SummaryDetail {
  quiet,       // the gate line alone
  grouped,     // the tables, then a block per group of alike cases
  every_case,  // the tables, then a block per case
};

struct CaseGroup {
  std::string heading;  // the verdict ("regression") or "warning"
  std::vector<std::string> rule_ids;
  std::vector<const suite::RecordedCase*> cases;  // in the run's order
  bool messages_vary = false;                     // in their numbers (nothing else)
};

// The rules that decided a case: those of its worst findings, or the rules
// it names where it has no finding (a crash); and where a check of the tool
// itself failed it (a vector that did not fire its rule), the rules the case
// is about as well.
std::vector<std::string> deciding_rules(const suite::RecordedCase& recorded);

// The cases that ran and whose verdict is not ok, grouped by verdict, rules
// and message pattern: the groups that fail the gate first, then in the
// order their first case comes in the run. A case whose re-run a stop cut
// short ("... (without its re-run: REASON)") joins the group of its message
// without that suffix, and the cases a stop left unrun are no group: they
// are the stop's (stopped_cases).
std::vector<CaseGroup> group_failures(const suite::CheckRun& run);

// The cases a limit left unrun (--max-consecutive-hangs, --max-failures),
// counted under each of the run's stop reasons that left some. They say
// nothing of a library, so one crashing library reads as its crash's group
// and one "N cases not run: REASON" line, not as a group of its own.
struct StoppedCases {
  std::string reason;  // as run.stop_reasons has it
  std::size_t count = 0;
};
std::vector<StoppedCases> stopped_cases(const suite::CheckRun& run);
// The cases of stopped_cases, all reasons together.
std::size_t stopped_case_count(const suite::CheckRun& run);
// The warnings the gate let pass, grouped by rules and message pattern.
std::vector<CaseGroup> group_warnings(const suite::CheckRun& run);

// The failures and warnings as `detail` asks: each group with its count,
// its first case ids, the first case's message, the findings the message
// does not say, one repro line and `see: dlpack-usm rules ID` for each of
// its rules (grouped), or the same block for every case (every_case).
// Nothing for quiet.
void print_failures(Printer& printer, const suite::CheckRun& run, SummaryDetail detail);

}  // namespace dlpack_usm::report
