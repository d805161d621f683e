// Writers of a finished `check` run: the one walk that prints the JSON report
// (schema dlpack-usm.report/3, conformance/schema/report.schema.json) or the
// summary people read; its reader is report_json_reader.hpp, and each case's
// record has the one codec of suite/model/record_json.hpp. The other
// formats have a module each here: JUnit XML (junit.hpp), the failures file
// (failures_file.hpp), results.jsonl (results_stream.hpp). The gate decides
// the exit code (suite/gate/exit_code.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/failure_groups.hpp"
#include "report/printer.hpp"
#include "report/text_table.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

inline constexpr const char* kReportSchema = suite::kCheckReportSchema;

// The one walk of a run: JSON gets every case whatever `detail` says; text
// shows the failing cases as `detail` asks (report/failure_groups.hpp).
void print_check_run(Printer& printer, const suite::CheckRun& run, SummaryDetail detail);
// One case's fields (its record, suite/model/record_json.hpp), in the
// object the caller opened: a result of the report.
void print_case(Printer& printer, const suite::RecordedCase& recorded);

nlohmann::ordered_json check_run_to_json(const suite::CheckRun& run);
// The text people read: tables, verdicts, failures, gate; with quiet the
// gate line alone. `width`: the columns lines are fitted to (0: none);
// repro lines stay whole, a command to copy.
std::string check_run_summary(const suite::CheckRun& run,
                              SummaryDetail detail = SummaryDetail::grouped, std::size_t width = 0);
// The end of that text alone (verdicts, failures, gate), for a run whose
// tables are printed elsewhere (Python's consume, through the bridge).
std::string run_ending_summary(const suite::CheckRun& run, SummaryDetail detail,
                               std::size_t width = 0);
// The report's summary.verdicts: {"ok", ..., "regression"}.
nlohmann::ordered_json verdict_counts_json(const suite::VerdictCounts& verdicts);
// "gate: FAILED (81 cases run in 52.1 s)", with the cases the filters left
// out counted apart ("22 cases run, 471 filtered,").
std::string gate_line(const suite::CheckRun& run);

// Parts of the summary other formats show as they are: the table of cases
// per device and outcome, and the gate line ("gate: PASSED (...)").
TextTable device_outcome_table(const suite::CheckRun& run);
std::string check_run_gate_line(const suite::CheckRun& run);

}  // namespace dlpack_usm::report
