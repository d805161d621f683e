#include "cli/check_outputs.hpp"

#include <cstdio>
#include <utility>

#include <fmt/core.h>

#include "common/atomic_file.hpp"
#include "report/formats/check_report.hpp"
#include "report/formats/junit.hpp"

namespace dlpack_usm::cli {

void require_writable_outputs(const CheckOutputs& outputs) {
  require_distinct_outputs({{"--report", outputs.report},
                            {"--junit", outputs.junit},
                            {"--failures", outputs.failures},
                            {"--stream", outputs.stream}});
  for (auto [option, path] : {std::pair{"--report", &outputs.report},
                              {"--junit", &outputs.junit},
                              {"--failures", &outputs.failures}}) {
    if (!path->empty()) resolve_output(*path, option);
  }
}

void write_check_outputs(const suite::CheckRun& run, const nlohmann::ordered_json& report_json,
                         const CheckOutputs& outputs) {
  // Reports first: a gate decision nobody can read later is worth little.
  if (!outputs.report.empty()) {
    write_file_atomically(
        outputs.report,
        report_json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
        "--report");
  }
  if (!outputs.junit.empty()) {
    write_file_atomically(outputs.junit, report::check_run_to_junit(run), "--junit");
  }
  if (!outputs.failures.empty()) {
    write_file_atomically(outputs.failures, report::check_run_failures(run), "--failures");
  }
  std::FILE* summary_stream = outputs.report == "-" ? stderr : stdout;
  fmt::print(summary_stream, "{}", report::check_run_summary(run));
}

}  // namespace dlpack_usm::cli
