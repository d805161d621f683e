// The wall time of the whole consumer matrix as a user runs it:
// `dlpack-usm check --consumer` on the correct fixture consumer, through the
// real binary (workers, one child per batch), next to one process per case
// (--batch 1), in alternating samples so both see the same machine. Prints
// JSON: cases, medians, and the time per case. Not a test: timings do not
// make tests.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "median_timer.hpp"

namespace {

namespace fs = std::filesystem;

// One run of the matrix; the report says how many cases ran and the gate.
nlohmann::json run_matrix(const std::string& extra) {
  fs::path report = fs::temp_directory_path() / fmt::format("dlpack-usm-bench-{}.json", getpid());
  std::string command =
      fmt::format("'{}' check --consumer '{}' --report '{}' {} > /dev/null 2>&1", DLPACK_USM_TOOL,
                  DLPACK_USM_FIXTURE_CONSUMER, report.string(), extra);
  nlohmann::json result = {{"command", command}, {"exit_status", std::system(command.c_str())}};
  std::ifstream in(report);
  nlohmann::json parsed = nlohmann::json::parse(in, nullptr, false);
  if (parsed.is_object()) {
    result["cases"] = parsed["summary"]["total"];
    result["not_supported"] = parsed["summary"]["outcomes"]["not_supported"];
    result["gate"] = parsed["summary"]["gate"];
  }
  fs::remove(report);
  return result;
}

nlohmann::json figures(const nlohmann::json& run, const dlpack_usm::bench::Timing& timing) {
  double seconds = timing.median_ns / 1e9;
  nlohmann::json out = run;
  out["median_wall_seconds"] = seconds;
  out["min_wall_seconds"] = timing.min_ns / 1e9;
  out["samples"] = timing.samples;
  if (run.contains("cases") && run["cases"].get<double>() > 0) {
    out["ms_per_case"] = seconds * 1000 / run["cases"].get<double>();
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // The number of timed samples of each (3 untimed warm-up rounds first).
  std::uint64_t samples = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 3;
  if (samples == 0) samples = 1;
  nlohmann::json workers = run_matrix("");
  nlohmann::json per_case = run_matrix("--batch 1");
  auto [batched, isolated] = dlpack_usm::bench::measure_interleaved(
      samples, 1, [](std::uint64_t) { run_matrix(""); },
      [](std::uint64_t) { run_matrix("--batch 1"); });
  nlohmann::json out;
  out["consumer_matrix"] = figures(workers, batched);
  out["consumer_matrix_process_per_case"] = figures(per_case, isolated);
  out["process_per_case_over_workers"] = isolated.median_ns / batched.median_ns;
  out["cpus"] = sysconf(_SC_NPROCESSORS_ONLN);
  fmt::print("{}\n", out.dump(2));
  return 0;
}
