// Writers of a finished `check` run: the JSON report (schema
// dlpack-usm.report/1, conformance/schema/report.schema.json), JUnit XML for
// CI systems, the summary people read, and one streamed results line.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "suite/check_run.hpp"

namespace dlpack_usm::report {

inline constexpr const char* kReportSchema = suite::kCheckReportSchema;

nlohmann::ordered_json check_run_to_json(const suite::CheckRun& run);
std::string check_run_to_junit(const suite::CheckRun& run);
std::string check_run_summary(const suite::CheckRun& run);
// One line of results.jsonl (no newline).
std::string recorded_case_line(const suite::RecordedCase& recorded);

// XML 1.0 text: escapes markup and replaces characters XML cannot carry
// (control characters, invalid UTF-8) with U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace dlpack_usm::report
