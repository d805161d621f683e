// Writers of a finished `check` run: the one walk that prints the JSON report
// (schema dlpack-usm.report/1, conformance/schema/report.schema.json) or the
// summary people read, the failures file, and one streamed results line
// (JUnit XML: junit.hpp). The run's model decides the exit code.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "report/printer.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

inline constexpr const char* kReportSchema = suite::kCheckReportSchema;

// 0 when the gate passed, 1 (findings) otherwise.
ExitCode decide_exit_code(const suite::CheckRun& run);

void print_check_run(Printer& printer, const suite::CheckRun& run);
// One case's fields, in the object the caller opened: a result of the
// report and a line of results.jsonl alike.
void print_case(Printer& printer, const suite::RecordedCase& recorded);

nlohmann::ordered_json check_run_to_json(const suite::CheckRun& run);
std::string check_run_summary(const suite::CheckRun& run);
// The failures file (suite::failures_file_text) of the run's cases.
std::string check_run_failures(const suite::CheckRun& run);
// One line of results.jsonl (no newline).
std::string recorded_case_line(const suite::RecordedCase& recorded);

}  // namespace dlpack_usm::report
