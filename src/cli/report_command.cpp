// dlpack-usm report merge: one gate decision (report, JUnit XML, failures
// file, exit code) from the reports of the shards of a CI matrix and of the
// runs of several machines.
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/check_outputs.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/error.hpp"
#include "report/merged_report.hpp"
#include "suite/gate/report_merge.hpp"
#include "suite/model/expectations.hpp"

namespace dlpack_usm::cli {
namespace {

struct MergeArguments {
  std::vector<std::string> files;
  std::vector<std::string> baselines, flakes;
  CheckOutputs outputs;
};

// An output that is one of the inputs would replace a report the merge
// reads (the second run of 'report merge reports/*.json --report
// reports/merged.json'): refused before anything is read or written.
void refuse_outputs_among_inputs(const MergeArguments& args) {
  for (const GateOutput& gate_output : gate_outputs()) {
    std::string_view option = gate_output.option;
    const std::string* path = &(args.outputs.*gate_output.path);
    struct stat output {};
    if (path->empty() || *path == "-" || stat(path->c_str(), &output) != 0) continue;
    for (const std::string& file : args.files) {
      struct stat input {};
      if (stat(file.c_str(), &input) != 0) continue;
      if (input.st_dev != output.st_dev || input.st_ino != output.st_ino) continue;
      fail_usage(
          fmt::format("report merge: {} {} is also one of the reports to merge ({})", option, *path,
                      file),
          fmt::format("write the merged outputs outside the list of inputs (another "
                      "directory, or a name the input pattern does not match){}",
                      option == "--report" ? "; a merged report cannot be merged again" : ""));
    }
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
  std::vector<report::ShardReport> inputs;
  for (const std::string& file : args.files) inputs.push_back(report::read_shard_report(file));
  suite::MergedRun merged = suite::merge_shard_reports(inputs, expectations, command_line);
  for (const std::string& warning : merged.warnings) print_warning(warning);
  write_check_outputs(merged.run, report::merged_run_to_json(merged), args.outputs);
  return static_cast<int>(merged.run.gate_passed() ? ExitCode::ok : ExitCode::findings);
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

}  // namespace

void add_report_command(CLI::App& app, Invocation& invocation) {
  auto* report = app.add_subcommand("report", "Work with the reports 'check' writes: merge shards");
  report->require_subcommand(1);
  add_merge(*report, invocation);
}

}  // namespace dlpack_usm::cli
