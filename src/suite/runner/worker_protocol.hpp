// What the runner and its workers say to each other, in one place. A worker
// is the tool itself run as the hidden subcommand `worker` (never a flag of
// the public `check`), with the argv worker_argv() builds. It answers on its
// result channel (result_channel.hpp), one JSON object per line:
//   {"worker":"ready"}                         once its runtime is up
//   {"id":…,"outcome":…,"findings":[…],…}      one per case, in order
//   {"described":[…]}                          the plugin probe's answer
//   {"error":{"exit_code":N,"message":…,"hint":…}}  an Error that ended it
// and nothing else: the runner treats any other line as written by the
// library under test. A worker started with --more-cases reads further
// cases on the same channel, one a line (more_cases_text), once it has run
// those of its argv, and ends when the runner closes its side. A case comes
// with the kind of its source (CaseSpec::source), so that no worker reads
// it out of the id.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// The hidden subcommand a worker runs as.
inline constexpr const char* kWorkerCommand = "worker";

// What a worker is started to do.
struct WorkerJob {
  enum class Task { run_cases, describe_libraries };
  Task task = Task::run_cases;
  std::string runtime;                        // the runner's active runtime, by name
  std::string suite_dir;                      // where the conformance vectors are
  std::vector<std::string> plugin_arguments;  // --producer/--consumer LIB, as given to check
  int stream_attempts = 0;                    // check --stream-attempts; 0: not given
  std::vector<std::string> case_ids;          // run_cases: the batch, in order
  std::vector<std::string> case_sources;      // the kinds of their sources
  bool more_cases = false;                    // then more ids on the channel
  // Before saying ready: the runtime started and every case listed, so that
  // a worker started ahead of its cases has its runtime up when they come.
  bool ready_for_any_case = false;
  long runner_pid = 0;  // the run the worker dies with
};

// The argv of `self` (this binary) doing `job`.
std::vector<std::string> worker_argv(const std::string& self, const WorkerJob& job);

// The line a worker sends once its runtime is up and its cases are known:
// a case's timeout counts from there, so that starting a runtime on a
// loaded machine is never charged to the first case.
inline constexpr std::string_view kWorkerReadyLine = "{\"worker\":\"ready\"}";

// What the runner sends a worker that takes more cases: a line per case of
// the batch, its source's kind, a space, its id; "" where an id holds a
// newline (that batch needs a worker of its own, its ids on argv).
std::string more_cases_text(const std::vector<const CaseSpec*>& batch);

// A case as a worker reads it on its channel.
struct CaseToRun {
  std::string source;
  std::string id;
};
// The case of one line of more_cases_text; nullopt for a line that is none.
std::optional<CaseToRun> case_from_line(std::string_view line);

// A case's result as a worker sends it: the record's result fields
// (suite/model/record_json.hpp, the one codec the report uses too).
nlohmann::json result_to_json(const CaseResult& result);
// The result `payload` gives case `id`; nullopt when it is none (not JSON,
// not a record, another case's id).
std::optional<CaseResult> result_from_line(const std::string& id, std::string_view payload);

// The plugin probe's answer: the libraries' descriptions.
std::string described_line(const nlohmann::json& descriptions);
std::optional<nlohmann::json> described_from_line(std::string_view payload);

// An Error that ended a worker, sent before it exits so that the runner
// repeats it (same exit code, message and hint) without reading stderr.
std::string error_line(const Error& error);
std::optional<Error> error_from_line(std::string_view payload);

// One JSON line, invalid UTF-8 (a library's text) replaced, never thrown on.
std::string json_line(const nlohmann::json& json);

}  // namespace dlpack_usm::suite
