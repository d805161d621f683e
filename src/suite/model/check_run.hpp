// Everything a finished `check` run knows, in one plain model that every
// reporter (summary text, JSON report, JUnit XML, failures file) formats
// without deciding anything.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/device_model.hpp"
#include "runtime/owner_probe.hpp"
#include "suite/model/case.hpp"
#include "suite/model/expectations.hpp"

namespace dlpack_usm::suite {

// The JSON report's schema id (conformance/schema/report.schema.json). /3
// gives every case its place in the matrix and its exchange as fields of its
// record (suite/model/record_json.hpp); /2 opened with the envelope every
// JSON document has (report/envelope.hpp); /1 had "tool": {"name",
// "version"} instead, at the top and in its environment. 'report merge'
// reads all three; 'report matrix' takes a case's place from /3 alone.
inline constexpr const char* kCheckReportSchema = "dlpack-usm.report/3";
inline constexpr const char* kCheckReportSchemaV2 = "dlpack-usm.report/2";
inline constexpr const char* kCheckReportSchemaV1 = "dlpack-usm.report/1";

// check --label: a prefix of case ids in merged reports and a name in their
// text, so a short name without spaces, slashes or control bytes.
inline constexpr std::size_t kMaxLabelLength = 64;
bool is_plain_label(std::string_view text);

struct RecordedCase {
  CaseSpec spec;
  CaseResult result;
  std::string repro;  // a command line that re-runs just this case
};

struct VerdictCounts {
  int ok = 0;
  int expected_failure = 0;
  int flaky = 0;
  int unexpected_pass = 0;
  int regression = 0;
};

struct CheckRun {
  std::string tool_version;
  std::string started_at;   // RFC 3339, UTC
  std::string finished_at;  // RFC 3339, UTC
  double duration_ms = 0;
  std::vector<std::string> command_line;
  runtime::Inventory inventory;
  // What each platform answered when asked who owns an allocation on its
  // devices; empty for a run of the vectors alone, which asks nothing.
  std::vector<runtime::OwnerAnswerCheck> owner_answers;
  nlohmann::json options;  // selection, shard, timeout, jobs, as given
  std::vector<ExpectationFile> expectation_files;
  std::vector<RecordedCase> cases;
  bool interrupted = false;
  // Why cases were turned away before their turn (check --max-failures,
  // --max-consecutive-hangs); each such case is not_run with its reason.
  std::vector<std::string> stop_reasons;
  bool strict = false;  // check --strict: warnings fail the gate
  // The libraries under test (check --producer/--consumer), as the probe
  // child described them: role, path, interface, name, version.
  nlohmann::json plugins = nlohmann::json::array();

  // The verdicts of the cases the selection ran: a case the filters left
  // out (skipped) has none worth counting.
  VerdictCounts verdict_counts() const;
  int outcome_count(Outcome outcome) const;
  // The gate passes when nothing regressed, nothing passed unexpectedly and
  // the run was not interrupted: cases that never ran prove nothing, even
  // where a baseline expects them to fail.
  bool gate_passed() const;
};

}  // namespace dlpack_usm::suite
