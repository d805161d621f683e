#include "cli/check_outputs.hpp"

#include <cstdio>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli/console.hpp"
#include "common/atomic_file.hpp"
#include "common/printable.hpp"
#include "common/terminal_width.hpp"
#include "report/formats/check_report.hpp"
#include "report/formats/failures_file.hpp"
#include "report/formats/github_annotations.hpp"
#include "report/formats/junit.hpp"
#include "report/formats/summary_markdown.hpp"

namespace dlpack_usm::cli {

namespace {

std::string json_report_text(const suite::CheckRun&, const nlohmann::ordered_json& report_json) {
  return report_json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string junit_text(const suite::CheckRun& run, const nlohmann::ordered_json&) {
  return report::check_run_to_junit(run);
}

std::string failures_text(const suite::CheckRun& run, const nlohmann::ordered_json&) {
  return report::check_run_failures(run);
}

// The files written, in the order written, --stream last: what a stdout
// report ('-') is not.
std::vector<std::string> written_files(const CheckOutputs& outputs) {
  std::vector<std::string> files;
  for (const GateOutput& output : gate_outputs()) {
    const std::string& path = outputs.*output.path;
    if (!path.empty() && path != "-") files.push_back(printable(path));
  }
  if (!outputs.stream.empty() && outputs.stream != "-") files.push_back(printable(outputs.stream));
  return files;
}

std::string markdown_text(const suite::CheckRun& run, const nlohmann::ordered_json&) {
  return report::check_run_markdown(run);
}

}  // namespace

const std::vector<GateOutput>& gate_outputs() {
  static const std::vector<GateOutput> outputs{
      {"--report", &CheckOutputs::report, "Write the JSON report to FILE ('-' for stdout)",
       json_report_text},
      {"--junit", &CheckOutputs::junit, "Write JUnit XML to FILE", junit_text},
      {"--failures", &CheckOutputs::failures, "Write failing case ids to FILE, in baseline format",
       failures_text},
      {"--summary-md", &CheckOutputs::summary_md,
       "Add a Markdown summary to FILE (the end of it: give \"$GITHUB_STEP_SUMMARY\")",
       markdown_text, true},
  };
  return outputs;
}

void add_gate_output_options(CLI::App& command, CheckOutputs& outputs) {
  for (const GateOutput& output : gate_outputs()) {
    command.add_option(output.option, outputs.*output.path, output.help)->type_name("FILE");
  }
  command
      .add_option("--format", outputs.format,
                  "The summary for people: text, or github (GitHub Actions annotations, then "
                  "the text)")
      ->check(CLI::IsMember({"text", "github"}).description(""))
      ->type_name("FORMAT");
  add_color_option(command, outputs.color);
}

void add_summary_detail_options(CLI::App& command, CheckOutputs& outputs) {
  CLI::Option* verbose = command.add_flag_callback(
      "-v,--verbose", [&outputs] { outputs.summary_detail = report::SummaryDetail::every_case; },
      "List every case that is not ok (default: one block per group of alike cases)");
  CLI::Option* quiet = command.add_flag_callback(
      "-q,--quiet", [&outputs] { outputs.summary_detail = report::SummaryDetail::quiet; },
      "Print the gate line alone (errors and warnings still go to stderr)");
  verbose->excludes(quiet);
}

void refuse_outputs_among_expectations(const CheckOutputs& outputs,
                                       const std::vector<std::string>& baselines,
                                       const std::vector<std::string>& flakes) {
  std::vector<NamedInput> inputs;
  for (const std::string& file : baselines) inputs.push_back({"the --baseline file", file});
  for (const std::string& file : flakes) inputs.push_back({"the --flakes file", file});
  for (const GateOutput& output : gate_outputs()) {
    refuse_output_among_inputs(output.option, outputs.*output.path, inputs,
                               "write the outputs under names of their own; to make a failures "
                               "list the new baseline, write it beside and move it after review");
  }
  refuse_output_among_inputs("--stream", outputs.stream, inputs, "give --stream a file of its own");
}

void require_writable_outputs(const CheckOutputs& outputs) {
  std::vector<std::pair<std::string, std::string>> named;
  for (const GateOutput& output : gate_outputs()) {
    named.emplace_back(output.option, outputs.*output.path);
  }
  named.emplace_back("--stream", outputs.stream);
  require_distinct_outputs(named);
  for (const GateOutput& output : gate_outputs()) {
    const std::string& path = outputs.*output.path;
    if (!path.empty()) resolve_output(path, output.option);
  }
}

void write_check_outputs(const suite::CheckRun& run, const nlohmann::ordered_json& report_json,
                         const CheckOutputs& outputs) {
  for (const GateOutput& output : gate_outputs()) {
    const std::string& path = outputs.*output.path;
    if (path.empty()) continue;
    std::string text = output.text(run, report_json);
    if (output.appends) {
      append_file_atomically(path, text, output.option);
    } else {
      write_file_atomically(path, text, output.option);
    }
  }
  // An output on stdout ('-') keeps it to itself.
  bool stdout_taken = static_cast<bool>(outputs.document);
  for (const GateOutput& output : gate_outputs()) stdout_taken |= outputs.*output.path == "-";
  if (outputs.document) write_to(stdout, outputs.document(run));
  std::FILE* summary_stream = stdout_taken ? stderr : stdout;
  if (outputs.format == "github") write_to(summary_stream, report::check_run_annotations(run));
  // Fitted to COLUMNS, or to the terminal it goes to; a file or a pipe
  // without COLUMNS gets whole lines.
  std::size_t width = terminal_width(fileno(summary_stream), 0);
  report::SummaryDetail detail = outputs.summary_detail;
  if (outputs.story && detail != report::SummaryDetail::quiet) {
    write_to(summary_stream, outputs.story(run, width));
    if (detail == report::SummaryDetail::grouped) detail = report::SummaryDetail::quiet;
  }
  write_to(summary_stream, colored_for(outputs.color, summary_stream,
                                       report::check_run_summary(run, detail, width)));
  std::vector<std::string> files = written_files(outputs);
  if (!files.empty() && outputs.summary_detail != report::SummaryDetail::quiet) {
    write_to(summary_stream, fmt::format("wrote: {}\n", fmt::join(files, ", ")));
  }
}

}  // namespace dlpack_usm::cli
