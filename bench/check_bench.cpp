// The default suite as a CI job runs it (`dlpack-usm check`), against its
// bound (0.3 s) and next to `clinfo -l`, the runtimes' own start: no run of
// live cases can end before the runtimes are up. Paired rounds; rows for
// --jobs 2 and --batch 64 (the default before workers took part after part)
// show what the number of workers costs. Not a test: timings do not make
// tests.
// Usage: check_bench [--rounds N] [--tool PATH]
#include <string>
#include <vector>

#include <fmt/format.h>

#include "child_run.hpp"

namespace dlpack_usm::bench {
namespace {

constexpr double kBoundMs = 300;

void print_row(const std::string& what, const std::vector<std::string>& tool, int rounds) {
  Paired paired = run_paired(tool, {"clinfo", "-l"}, rounds, 1);
  double median = paired.median_a_ms();
  fmt::print("{:<36} {:>7.0f} {:>7.0f}   {:>7.0f} {:>7.0f}   {:>5.2f}   {:>5.0f}  {}{}\n", what,
             median, paired.min_a_ms(), paired.median_b_ms(), paired.min_b_ms(),
             paired.median_ratio(), kBoundMs, verdict(median, kBoundMs),
             paired.all_succeeded() ? "" : " (a run failed)");
}

// Whether `clinfo -l` runs here: without it there is nothing to compare with.
bool clinfo_runs() {
  ChildRun clinfo = run_child({"clinfo", "-l"});
  if (clinfo.exit_code == 0) return true;
  fmt::print("clinfo -l does not run here (exit {}): nothing to compare with\n", clinfo.exit_code);
  return false;
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  namespace bench = dlpack_usm::bench;
  if (!bench::clinfo_runs()) return 1;
  const std::string tool = bench::option(argc, argv, "--tool", DLPACK_USM_TOOL);
  const int rounds = std::stoi(bench::option(argc, argv, "--rounds", "5"));
  fmt::print(
      "check, the default suite: {} paired rounds with clinfo -l after one warm-up; "
      "load average {:.2f}\n",
      rounds, bench::load_average());
  fmt::print("{:<36} {:>7} {:>7}   {:>7} {:>7}   {:>5}   {:>5}\n", "(ms)", "median", "min",
             "clinfo", "min", "ratio", "bound");
  bench::print_row("dlpack-usm check", {tool, "check"}, rounds);
  bench::print_row("dlpack-usm check --jobs 2", {tool, "check", "--jobs", "2"}, rounds);
  bench::print_row("dlpack-usm check --batch 64", {tool, "check", "--batch", "64"}, rounds);
  return 0;
}
