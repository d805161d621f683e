// Findings of the rule engine, per tensor and per file: the model that
// tests and any later checker fill, and the one walk that prints it, as an
// aligned text listing for people or one JSON document for machines.
// `capsule check` does not hold the model: it walks file by file and tensor
// by tensor as it reads (FindingsWalk), so its memory follows the largest
// tensor, not the files. The walk decides the exit code from its counts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
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
  std::optional<FileError> error;       // set when the file could not be read to its end
  std::vector<TensorFindings> tensors;  // those read before the error, if any
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

// The verdict of a check, decided by what was found rather than by the
// command line: 2 (usage) when a file could not be read, 1 when an error
// remains (or, with strict, a warning), 0 otherwise.
ExitCode decide_exit_code(const FindingsSummary& summary, bool strict);
ExitCode decide_exit_code(const FindingsReport& report);

// The walk of a check as it happens: files in order, each tensor's findings
// as soon as they are known. Only the counts stay; each tensor goes to the
// printer and is forgotten. A file that stops being readable keeps the
// tensors read before the problem and gets the error after them.
class FindingsWalk {
 public:
  FindingsWalk(Printer& printer, bool strict);
  FindingsWalk(const FindingsWalk&) = delete;
  FindingsWalk& operator=(const FindingsWalk&) = delete;

  void begin_file(const std::string& file);
  void tensor(const TensorFindings& tensor);
  // The same for a tensor whose origin and findings the caller keeps (and
  // reuses for the next tensor).
  void tensor(std::string_view origin, const std::vector<rules::Finding>& findings);
  void end_file(const std::optional<FileError>& error);
  // Prints the summary and the exit code, and returns that exit code.
  int finish();

 private:
  Printer& printer_;
  bool strict_;
  FindingsSummary summary_;
  std::string file_;              // the file being walked
  std::size_t file_tensors_ = 0;  // its tensors so far
};

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
