// What people read of a run's failures and warnings: one block per kind of
// failure instead of one per case. A producer with one bug fails dozens of
// cases with one rule and one message that differs only in its numbers;
// those are one group, with its count, its first case ids, one repro line
// and the rule to read. `check -v` prints every case instead; JSON always
// has every case.
#pragma once

#include <string>
#include <vector>

#include "report/printer.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

struct CaseGroup {
  std::string heading;  // the verdict ("regression") or "warning"
  std::vector<std::string> rule_ids;
  std::vector<const suite::RecordedCase*> cases;  // in the run's order
  bool messages_vary = false;                     // beyond their numbers
};

// `message` with every run of digits made '#': "12 of 15 elements" and "3
// of 5 elements" are one pattern.
std::string message_pattern(std::string_view message);

// The cases whose verdict is not ok, grouped by verdict, rules and message
// pattern, groups in the order their first case ran.
std::vector<CaseGroup> group_failures(const suite::CheckRun& run);
// The warnings the gate let pass, grouped by rules and message pattern.
std::vector<CaseGroup> group_warnings(const suite::CheckRun& run);

// Lines for people: each failure group with its count, its first case ids,
// the first case's message and repro, and `see: dlpack-usm rules ID` for
// each of its rules; then the warnings, a line per group.
void print_failure_groups(Printer& printer, const suite::CheckRun& run);

// `see: dlpack-usm rules ID`, once per rule the groups name.
void print_rule_pointers(Printer& printer, const std::vector<CaseGroup>& groups);

}  // namespace dlpack_usm::report
