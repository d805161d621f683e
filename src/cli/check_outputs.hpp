// The files a gate decision is written to, shared by `check` and
// `report merge`: the JSON report, JUnit XML and the failures list, checked
// before any work starts and written atomically once the verdict is known.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "report/failure_groups.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::cli {

struct CheckOutputs {
  std::string report;    // --report ("-": stdout)
  std::string junit;     // --junit
  std::string failures;  // --failures
  std::string stream;    // --stream (check only)
  // -q / -v: how much of the run the summary on stdout shows.
  report::SummaryDetail summary_detail = report::SummaryDetail::grouped;
};

// One file a gate decision can be written to: its option, where the
// command keeps its path, and what the file holds. A new output format is
// a row here and its writer in report/formats/.
struct GateOutput {
  const char* option;  // "--junit"
  std::string CheckOutputs::*path;
  const char* help;
  std::string (*text)(const suite::CheckRun& run, const nlohmann::ordered_json& report_json);
};

// The files `check` and `report merge` both write, in the order they are
// written: the report first (a gate decision nobody can read later is worth
// little). --stream, written as cases finish, is check's alone.
const std::vector<GateOutput>& gate_outputs();

// Declares an option per row of gate_outputs() on `command`.
void add_gate_output_options(CLI::App& command, CheckOutputs& outputs);

// Declares -v/--verbose (every case) and -q/--quiet (the gate line alone).
void add_summary_detail_options(CLI::App& command, CheckOutputs& outputs);

// Throws Error(usage) for paths that name one file twice, more than one
// stdout, or a target that cannot be written in place or replaced.
void require_writable_outputs(const CheckOutputs& outputs);

// Writes the outputs that were asked for; `report_json` is the report as the
// command builds it. Then prints the summary as summary_detail asks, and a
// closing "wrote: FILE, ..." naming every file written (--stream's too), on
// stderr when the report went to stdout.
void write_check_outputs(const suite::CheckRun& run, const nlohmann::ordered_json& report_json,
                         const CheckOutputs& outputs);

}  // namespace dlpack_usm::cli
