// The files a gate decision is written to, shared by `check` and
// `report merge`: the JSON report, JUnit XML, the failures list and the
// Markdown summary, checked before any work starts and written atomically
// once the verdict is known; and how the summary on the terminal looks
// (--format, --color).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/color_option.hpp"
#include "report/failure_groups.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::cli {

struct CheckOutputs {
  std::string report;      // --report ("-": stdout)
  std::string junit;       // --junit
  std::string failures;    // --failures
  std::string summary_md;  // --summary-md (added to, as $GITHUB_STEP_SUMMARY wants)
  std::string stream;      // --stream (check only)
  // The summary for people: "text", or "github" (workflow commands first).
  std::string format = "text";
  ColorMode color = ColorMode::automatic;  // --color
  // -q / -v: how much of the run the summary on stdout shows.
  report::SummaryDetail summary_detail = report::SummaryDetail::grouped;
  // A command's own account of the run for people (handoff's story), told
  // before the gate line in place of the grouped summary (-v adds it back).
  std::function<std::string(const suite::CheckRun&, std::size_t width)> story;
  // A command's own JSON document, on stdout (handoff --json): the story
  // and the gate line then go to stderr.
  std::function<std::string(const suite::CheckRun&)> document;
};

// One file a gate decision can be written to: its option, where the
// command keeps its path, and what the file holds. A new output format is
// a row here and its writer in report/formats/.
struct GateOutput {
  const char* option;  // "--junit"
  std::string CheckOutputs::*path;
  const char* help;
  std::string (*text)(const suite::CheckRun& run, const nlohmann::ordered_json& report_json);
  // Added to the end of the file (append_file_atomically) instead of
  // replacing it: a job summary collects what every command of a step writes.
  bool appends = false;
};

// The files `check` and `report merge` both write, in the order they are
// written: the report first (a gate decision nobody can read later is worth
// little). --stream, written as cases finish, is check's alone.
const std::vector<GateOutput>& gate_outputs();

// Declares an option per row of gate_outputs() on `command`, and --format
// and --color for the summary.
void add_gate_output_options(CLI::App& command, CheckOutputs& outputs);

// Declares -v/--verbose (every case) and -q/--quiet (the gate line alone).
void add_summary_detail_options(CLI::App& command, CheckOutputs& outputs);

// Throws Error(usage) for paths that name one file twice, more than one
// stdout, or a target that cannot be written in place or replaced.
void require_writable_outputs(const CheckOutputs& outputs);

// Throws Error(usage) when an output is the --baseline or --flakes file it
// would replace (check --baseline b.txt --failures b.txt).
void refuse_outputs_among_expectations(const CheckOutputs& outputs,
                                       const std::vector<std::string>& baselines,
                                       const std::vector<std::string>& flakes);

// Writes the outputs that were asked for; `report_json` is the report as the
// command builds it. Then prints the summary, on stderr when an output went
// to stdout ('-'): with --format github the workflow commands first
// (report/formats/github_annotations.hpp), in colour where --color says so,
// as summary_detail asks (-v, -q), and a closing "wrote: FILE, ..." naming
// every file written, --stream's too.
void write_check_outputs(const suite::CheckRun& run, const nlohmann::ordered_json& report_json,
                         const CheckOutputs& outputs);

}  // namespace dlpack_usm::cli
