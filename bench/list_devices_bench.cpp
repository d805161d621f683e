// list-devices against the listers it must outrun, in paired runs on the
// same machine: with --runtime opencl against `clinfo -l` (bound 1.0x), with
// --runtime sycl against `python -m dpctl -f` of the tools interpreter
// (bound 0.5x). Each row prints both medians, the median of the rounds'
// ratios and the bound. The runs before the timed ones leave the dpctl
// location cached, as every run after the first finds it.
// Usage: list_devices_bench [--rounds N] [--tool PATH] [--python PATH]
#include <string>
#include <vector>

#include <fmt/format.h>

#include "child_run.hpp"

namespace dlpack_usm::bench {
namespace {

struct Options {
  int rounds = 10;
  std::string tool;
  std::string python;
};

Options parse(int argc, char** argv) {
  return {std::stoi(option(argc, argv, "--rounds", "10")),
          option(argc, argv, "--tool", DLPACK_USM_TOOL),
          option(argc, argv, "--python", tools_python())};
}

struct Row {
  std::string what;
  std::vector<std::string> tool;
  std::string against;
  std::vector<std::string> other;
  double bound;
};

void print_row(const Row& row, int rounds) {
  ChildRun probe = run_child(row.other);
  if (probe.exit_code != 0) {
    fmt::print("{:<44} {} does not run here (exit {}): skipped\n", row.what, row.against,
               probe.exit_code);
    return;
  }
  Paired paired = run_paired(row.tool, row.other, rounds, 2);
  double ratio = paired.median_ratio();
  fmt::print("{:<44} {:>7.1f} {:>7.1f}   {:<22} {:>7.1f} {:>7.1f}   {:>5.2f}  {:>5.2f}  {}{}\n",
             row.what, paired.median_a_ms(), paired.min_a_ms(), row.against, paired.median_b_ms(),
             paired.min_b_ms(), ratio, row.bound, verdict(ratio, row.bound),
             paired.all_succeeded() ? "" : " (a run failed)");
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  using namespace dlpack_usm::bench;
  Options options = parse(argc, argv);
  fmt::print("list-devices, {} paired rounds after 2 warm-up rounds; load average {:.2f}\n",
             options.rounds, load_average());
  fmt::print("{:<44} {:>7} {:>7}   {:<22} {:>7} {:>7}   {:>5}  {:>5}\n", "tool (ms)", "median",
             "min", "compared to (ms)", "median", "min", "ratio", "bound");
  print_row({"dlpack-usm list-devices --runtime opencl",
             {options.tool, "list-devices", "--runtime", "opencl"},
             "clinfo -l",
             {"clinfo", "-l"},
             1.0},
            options.rounds);
  print_row({"dlpack-usm list-devices --runtime sycl",
             {options.tool, "list-devices", "--runtime", "sycl"},
             "python -m dpctl -f",
             {options.python, "-m", "dpctl", "-f"},
             0.5},
            options.rounds);
  return 0;
}
