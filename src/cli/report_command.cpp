// dlpack-usm report merge: one gate decision (report, JUnit XML, failures
// file, exit code) from the reports of the shards of a CI matrix and of the
// runs of several machines.
#include <memory>
#include <string>
#include <vector>

#include "cli/check_outputs.hpp"
#include "cli/commands.hpp"
#include "common/error.hpp"
#include "report/merged_report.hpp"
#include "suite/report_merge.hpp"

namespace dlpack_usm::cli {
namespace {

struct MergeArguments {
  std::vector<std::string> files;
  CheckOutputs outputs;
};

int merge_reports(const MergeArguments& args, const std::vector<std::string>& command_line) {
  require_writable_outputs(args.outputs);
  std::vector<suite::ShardReport> inputs;
  for (const std::string& file : args.files) inputs.push_back(suite::read_shard_report(file));
  suite::MergedRun merged = suite::merge_shard_reports(inputs, command_line);
  write_check_outputs(merged.run, report::merged_run_to_json(merged), args.outputs);
  return static_cast<int>(merged.run.gate_passed() ? ExitCode::ok : ExitCode::findings);
}

void add_merge(CLI::App& report, Outcome& outcome) {
  auto args = std::make_shared<MergeArguments>();
  auto* command = report.add_subcommand(
      "merge",
      "Combine the reports of 'check --shard I/N' runs, and of runs on several machines "
      "('check --label'), into one report, JUnit file, failures file and exit code");
  command->add_option("REPORT", args->files, "Reports written by 'check --report'")->required();
  command->add_option("--report", args->outputs.report,
                      "Write the merged JSON report to FILE ('-' for stdout)");
  command->add_option("--junit", args->outputs.junit, "Write JUnit XML to FILE");
  command->add_option("--failures", args->outputs.failures,
                      "Write failing case ids to FILE, in baseline format");
  command->callback(
      [args, &outcome] { outcome.exit_code = merge_reports(*args, outcome.command_line); });
}

}  // namespace

void add_report_command(CLI::App& app, Outcome& outcome) {
  auto* report = app.add_subcommand("report", "Work with the reports 'check' writes: merge shards");
  report->require_subcommand(1);
  add_merge(*report, outcome);
}

}  // namespace dlpack_usm::cli
