#include "cli/check_outputs.hpp"

#include <cstdio>
#include <utility>

#include <fmt/core.h>

#include "common/atomic_file.hpp"
#include "report/formats/check_report.hpp"
#include "report/formats/failures_file.hpp"
#include "report/formats/junit.hpp"

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

}  // namespace

const std::vector<GateOutput>& gate_outputs() {
  static const std::vector<GateOutput> outputs{
      {"--report", &CheckOutputs::report, "Write the JSON report to FILE ('-' for stdout)",
       json_report_text},
      {"--junit", &CheckOutputs::junit, "Write JUnit XML to FILE", junit_text},
      {"--failures", &CheckOutputs::failures, "Write failing case ids to FILE, in baseline format",
       failures_text},
  };
  return outputs;
}

void add_gate_output_options(CLI::App& command, CheckOutputs& outputs) {
  for (const GateOutput& output : gate_outputs()) {
    command.add_option(output.option, outputs.*output.path, output.help)->type_name("FILE");
  }
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
    if (!path.empty()) write_file_atomically(path, output.text(run, report_json), output.option);
  }
  std::FILE* summary_stream = outputs.report == "-" ? stderr : stdout;
  fmt::print(summary_stream, "{}", report::check_run_summary(run));
}

}  // namespace dlpack_usm::cli
