// Findings of the rule engine, per tensor and per file: the model that
// `capsule check` (and any later checker) fills, and the one walk that prints
// it, as an aligned text listing for people or one JSON document for
// machines. The walk only formats; the model has decided the exit code.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "report/printer.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::report {

struct TensorFindings {
  std::string origin;  // "capsule.json#0"
  std::vector<rules::Finding> findings;
};

struct FileError {
  std::string message;
  std::string hint;
};

struct FileFindings {
  std::string file;
  std::optional<FileError> error;  // set when the file could not be read
  std::vector<TensorFindings> tensors;
};

struct FindingCounts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;
};
FindingCounts count_findings(const std::vector<rules::Finding>& findings);

struct FindingsReport {
  std::vector<FileFindings> files;
  bool strict = false;  // warnings fail the check too
  int exit_code = 0;    // decide_exit_code(), as make_findings_report sets it
};

struct FindingsSummary {
  std::size_t files = 0;
  std::size_t unreadable_files = 0;
  std::size_t tensors = 0;
  FindingCounts findings;
};
FindingsSummary summarize(const FindingsReport& report);

// The verdict of a check, decided by the model rather than by the command
// line: 2 (usage) when a file could not be read, 1 when an error remains
// (or, with strict, a warning), 0 otherwise.
ExitCode decide_exit_code(const FindingsReport& report);

// The report of checked files with its exit code decided.
FindingsReport make_findings_report(std::vector<FileFindings> files, bool strict);

void print_findings_report(Printer& printer, const FindingsReport& report);
// One finding's fields, in the object the caller opened: the same shape in
// every output, "rule_id" naming the rule.
void print_finding(Printer& printer, const rules::Finding& finding);
// The columns of a table of findings (print_finding's fields).
std::vector<Column> finding_columns();

nlohmann::ordered_json finding_to_json(const rules::Finding& finding);
nlohmann::ordered_json findings_report_to_json(const FindingsReport& report);
std::string findings_report_to_text(const FindingsReport& report);

}  // namespace dlpack_usm::report
