// dlpack-usm report merge: one gate decision (report, JUnit XML, failures
// file, exit code) from the reports of the shards of a CI matrix and of the
// runs of several machines. dlpack-usm report matrix: the compatibility
// matrix of the libraries that profile, consume and check reports measured.
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/check_outputs.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/terminal_width.hpp"
#include "compat/formats/matrix_html.hpp"
#include "compat/formats/matrix_markdown.hpp"
#include "compat/formats/matrix_text.hpp"
#include "compat/matrix_inputs.hpp"
#include "report/merged_report.hpp"
#include "suite/gate/exit_code.hpp"
#include "suite/gate/fleet_expectation.hpp"
#include "suite/gate/report_merge.hpp"
#include "suite/model/expectations.hpp"

namespace dlpack_usm::cli {
namespace {

struct MergeArguments {
  std::vector<std::string> files;
  std::vector<std::string> baselines, flakes;
  std::vector<std::string> expect;  // --expect LABEL[:SHARDS]
  CheckOutputs outputs;
};

// An output that is one of the inputs would replace a file the command
// reads (the second run of 'report merge reports/*.json --report
// reports/merged.json'): refused before anything is read or written.
void refuse_outputs_among_inputs(const MergeArguments& args) {
  std::vector<NamedInput> inputs;
  for (const std::string& file : args.files)
    inputs.push_back({"one of the reports to merge", file});
  for (const std::string& file : args.baselines) inputs.push_back({"the --baseline file", file});
  for (const std::string& file : args.flakes) inputs.push_back({"the --flakes file", file});
  for (const GateOutput& gate_output : gate_outputs()) {
    std::string_view option = gate_output.option;
    refuse_output_among_inputs(
        option, args.outputs.*gate_output.path, inputs,
        fmt::format("write the merged outputs outside the list of inputs (another directory, or "
                    "a name the input pattern does not match){}",
                    option == "--report" ? "; a merged report cannot be merged again" : ""));
  }
}

int merge_reports(const MergeArguments& args, const std::vector<std::string>& command_line) {
  require_writable_outputs(args.outputs);
  refuse_outputs_among_inputs(args);
  std::vector<suite::ExpectationFile> expectations;
  for (const std::string& path : args.baselines) {
    expectations.push_back(suite::read_expectation_file(path, "baseline"));
  }
  for (const std::string& path : args.flakes) {
    expectations.push_back(suite::read_expectation_file(path, "flakes"));
  }
  std::vector<suite::ExpectedRuns> fleet;
  for (const std::string& text : args.expect) fleet.push_back(suite::parse_expected_runs(text));
  std::vector<report::ShardReport> inputs;
  for (const std::string& file : args.files) inputs.push_back(report::read_shard_report(file));
  suite::check_fleet(inputs, fleet);
  suite::MergedRun merged = suite::merge_shard_reports(inputs, expectations, command_line);
  for (const std::string& warning : merged.warnings) print_warning(warning);
  write_check_outputs(merged.run, report::merged_run_to_json(merged), args.outputs);
  return static_cast<int>(suite::decide_exit_code(merged.run));
}

void add_merge(CLI::App& report, Invocation& invocation) {
  auto args = std::make_shared<MergeArguments>();
  auto* command = report.add_subcommand(
      "merge",
      "Combine the reports of 'check --shard I/N' runs, and of runs on several machines "
      "('check --label'), into one report, JUnit file, failures file and exit code");
  command->add_option("REPORT", args->files, "Reports written by 'check --report'")
      ->required()
      ->type_name("");
  command
      ->add_option("--baseline", args->baselines,
                   "A baseline file the runs used (repeatable): verdicts are decided again "
                   "from it")
      ->allow_extra_args(false)
      ->type_name("FILE");
  command
      ->add_option("--expect", args->expect,
                   "The fleet the merge waits for (repeatable): the label of each machine kind "
                   "and its shard count ('check --label LABEL --shard I/SHARDS'); a label with "
                   "no report, another shard count or a label not expected is an error")
      ->allow_extra_args(false)
      ->type_name("LABEL[:SHARDS]");
  command
      ->add_option("--flakes", args->flakes,
                   "A flakes file the runs used (repeatable): verdicts are decided again "
                   "from it")
      ->allow_extra_args(false)
      ->type_name("FILE");
  add_gate_output_options(*command, args->outputs);
  add_summary_detail_options(*command, args->outputs);
  command->callback([args, &invocation] {
    invocation.exit_code = merge_reports(*args, invocation.command_line);
  });
}

struct MatrixArguments {
  std::vector<std::string> files;
  std::string format = "text";
  std::string output = "-";
  bool fold = true;
};

std::string render_matrix(const compat::CompatibilityMatrix& matrix, const MatrixArguments& args) {
  compat::MatrixOptions options;
  options.fold = args.fold;
  // Text on standard output is for people: fitted to COLUMNS or the
  // terminal. In a file, or piped without COLUMNS, a sentence stays a line.
  if (args.output == "-") options.width = terminal_width(STDOUT_FILENO, 0);
  if (args.format == "md") return compat::matrix_to_markdown(matrix, options);
  if (args.format == "md-summary") return compat::matrix_summary_to_markdown(matrix);
  if (args.format == "html") return compat::matrix_to_html(matrix);
  return compat::matrix_to_text(matrix, options);
}

int write_matrix(MatrixArguments args) {
  resolve_output(args.output, "--output");
  std::vector<NamedInput> inputs;
  for (const std::string& file : args.files)
    inputs.push_back({"one of the reports it reads", file});
  refuse_output_among_inputs("--output", args.output, inputs,
                             "write the matrix outside the list of inputs");
  // Sorted, so that the same reports make the same page whatever the
  // shell's order (the committed docs are compared byte for byte).
  std::sort(args.files.begin(), args.files.end());
  args.files.erase(std::unique(args.files.begin(), args.files.end()), args.files.end());
  std::vector<compat::LibraryProfile> profiles;
  for (const std::string& file : args.files) {
    std::vector<compat::LibraryProfile> read = compat::read_matrix_input(file);
    profiles.insert(profiles.end(), read.begin(), read.end());
  }
  write_file_atomically(args.output, render_matrix(compat::build_matrix(std::move(profiles)), args),
                        "--output");
  return static_cast<int>(ExitCode::ok);
}

void add_matrix(CLI::App& report, Invocation& invocation) {
  auto args = std::make_shared<MatrixArguments>();
  auto* command = report.add_subcommand(
      "matrix",
      "The compatibility matrix of the libraries the reports measured: one column per library, "
      "a row per cell, as text, Markdown or a self-contained HTML page");
  command
      ->add_option("REPORT", args->files,
                   "Reports of 'python3 -m dlpack_usm profile' or 'consume', or of 'check "
                   "--consumer/--producer' (--report FILE)")
      ->required();
  command->add_option("--format", args->format, "text (default), md, md-summary or html")
      ->check(CLI::IsMember({"text", "md", "md-summary", "html"}));
  command->add_option("--output", args->output, "Write it to FILE ('-': stdout, the default)");
  command->add_flag("--fold,!--no-fold", args->fold,
                    "Text and md: fold the rows where every library agrees (default), or not");
  command->callback([args, &invocation] { invocation.exit_code = write_matrix(*args); });
}

}  // namespace

void add_report_command(CLI::App& app, Invocation& invocation) {
  auto* report = app.add_subcommand(
      "report", "Work with the reports 'check' writes: merge shards; the compatibility matrix");
  report->require_subcommand(1);
  add_merge(*report, invocation);
  add_matrix(*report, invocation);
}

}  // namespace dlpack_usm::cli
