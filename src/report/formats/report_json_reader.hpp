// The one reader of check reports: the report of one `check --report` run
// for `report merge`, and the records of any check report for `report
// matrix`, read as the untrusted input they are: bounded (size, nesting,
// string length), every field used checked for its type, and a wrong one
// named by its file and JSON pointer (a usage error, exit 2) — never a
// crash, never exit 4. Each case's record is read by the one codec
// (suite/model/record_json.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "capsule/bounded_json.hpp"
#include "common/json_fields.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/selection.hpp"

namespace dlpack_usm::report {

// Shard reports are a few hundred KiB; a bound keeps a wrong path harmless.
inline constexpr std::size_t kMaxShardReportBytes = std::size_t{256} << 20;
// A check report nests 10 levels (environment, platforms, devices,
// sub-devices, USM); the bound keeps a merged report (which nests each
// input two levels deeper, and indents each level) proportional to its inputs.
inline constexpr std::size_t kMaxReportDepth = 32;
// Messages are cut where they are made (a library's stderr: a few KiB).
inline constexpr std::size_t kMaxReportStringBytes = std::size_t{1} << 20;

// An expectation file a run used, as its report names it.
struct ExpectationRef {
  std::string kind;  // "baseline" or "flakes"
  std::string path;  // on the machine of the run
  std::string sha256;
};

// One `check --report` file, as the merge uses it.
struct ShardReport {
  std::string file;
  std::string label;   // empty: the run had no --label
  suite::Shard shard;  // 1/1 without --shard
  std::string tool_version;
  std::string suite_digest;  // SHA-256 of every case id of the suite, 64 hex digits
  std::size_t suite_cases = 0;
  suite::Selection selection;  // --filter, --rule, --device, --shard
  bool strict = false;         // check --strict
  bool interrupted = false;    // as its summary says
  // The summary's stop_reasons (reports of older versions have none).
  std::vector<std::string> stop_reasons;
  std::vector<ExpectationRef> expectations;
  nlohmann::json plugins = nlohmann::json::array();  // the libraries under test
  // Every case, its verdict as the report gives it; spec.rules are the rules
  // the case is about (the report's "rules"), which --rule selects by.
  std::vector<suite::RecordedCase> cases;
  std::string started_at, finished_at;
  double duration_ms = 0;
  nlohmann::json document;  // the whole report, for the merged report's "runs"
};

// The JSON of a report `input` names, parsed within the bounds above (depth,
// string length, members; `depth_note` says how deep the report nests): a
// syntax error or a bound passed is a usage error naming the file and the
// byte or JSON pointer of the place. A top-level array is handed to
// `on_root_entry` entry by entry and comes back empty.
nlohmann::json parse_report_json(const JsonInput& input, std::string_view text,
                                 std::string_view depth_note,
                                 const capsule::RootEntryHandler& on_root_entry);

// Whether `schema` is that of a check report this version reads (/1 to /3).
bool is_check_report_schema(std::string_view schema);

// What every reader of a check report takes from it: the libraries under
// test (check --producer/--consumer) and every case's record.
struct CheckReportRecords {
  std::string schema;
  nlohmann::json plugins = nlohmann::json::array();
  std::vector<suite::RecordedCase> cases;
};

// The records of a check report `document` (parsed by parse_report_json,
// its schema one is_check_report_schema takes). Throws Error(usage) naming
// the input and the JSON pointer of a member missing or of another type.
CheckReportRecords read_check_report_records(const JsonInput& input,
                                             const nlohmann::json& document);

// Throws Error(usage) naming the file (and the JSON pointer of the place)
// when it is not a regular file of at most kMaxShardReportBytes, not JSON
// within the bounds above, not a check report, a merged report, or a field
// the merge uses is missing or of another type.
ShardReport read_shard_report(const std::filesystem::path& path);

}  // namespace dlpack_usm::report
