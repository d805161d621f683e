// Runs cases isolated: each in a child process (the tool re-executed, never
// a bare fork once OpenCL threads exist) under a watchdog, several at once,
// re-running a failing case once. A case that crashes, aborts or hangs is
// recorded as crash or timeout and the run goes on.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "suite/case.hpp"

namespace dlpack_usm::suite {

// The line prefix a child writes its result behind, so driver or plugin
// chatter on stdout cannot be mistaken for it.
inline constexpr const char* kResultMarker = "DLPACK-USM-RESULT ";

struct RunnerOptions {
  // The argv that runs one case in a child (the child calls run_case_in_child).
  std::function<std::vector<std::string>(const CaseSpec&)> child_command;
  std::chrono::milliseconds timeout{60000};
  int jobs = 1;
  bool rerun_failures = true;
  // Called once per case, in completion order, with its final result.
  std::function<void(const CaseResult&)> on_result;
  // Called when a case starts (for a progress line).
  std::function<void(const CaseSpec&, std::size_t started, std::size_t total)> on_start;
};

// Results in the order of `cases`. SIGINT/SIGTERM stop the run: running
// children are killed, and they and the cases not started become not_run.
std::vector<CaseResult> run_isolated(const std::vector<CaseSpec>& cases,
                                     const RunnerOptions& options);

// The child side: finds case `id` among `sources`, runs it, prints the
// marker line with its result as JSON, and returns the process exit code.
int run_case_in_child(CaseSources& sources, const std::string& id);

// The result JSON exchanged between child and parent (also the report's).
nlohmann::json result_to_json(const CaseResult& result);
CaseResult result_from_child_output(const std::string& id, const std::string& out);

}  // namespace dlpack_usm::suite
