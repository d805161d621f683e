// The price of a failing run: `dlpack-usm check --producer` on a fixture
// producer with exactly one bug (it leaves byte_offset 0, so every view with
// an offset reads the wrong elements) next to the correct fixture producer,
// in paired rounds through the real binary. A failing case costs a re-run
// where attempts may differ, never a process per case, so the failing run
// stays within 2x of the passing one (issue 35). Prints the medians, the
// ratio and its bound; not a test: timings do not make tests.
// Usage: one_bug_bench [--rounds N] [--tool PATH] [--jobs N]
#include <string>
#include <vector>

#include <fmt/format.h>

#include "child_run.hpp"

namespace dlpack_usm::bench {
namespace {

constexpr double kBound = 2.0;

// As a user runs it; --jobs only where the bench is given one.
std::vector<std::string> check_command(const std::string& tool, const std::string& library,
                                       const std::string& jobs) {
  std::vector<std::string> argv{tool, "check", "--producer", library};
  if (!jobs.empty()) argv.insert(argv.end(), {"--jobs", jobs});
  return argv;
}

// The exit codes a round gave, which say whether the times are figures:
// the correct producer passes (0), the buggy one fails the gate (1).
bool exits_as_expected(const Paired& paired) {
  for (std::size_t i = 0; i < paired.a.size(); ++i) {
    if (paired.a[i].exit_code != 1 || paired.b[i].exit_code != 0) return false;
  }
  return !paired.a.empty();
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  using namespace dlpack_usm::bench;
  int rounds = std::stoi(option(argc, argv, "--rounds", "5"));
  std::string tool = option(argc, argv, "--tool", DLPACK_USM_TOOL);
  std::string jobs = option(argc, argv, "--jobs", "");
  fmt::print("check --producer{}, {} paired rounds after 1 warm-up round; load average {:.2f}\n",
             jobs.empty() ? std::string() : " --jobs " + jobs, rounds, load_average());
  Paired paired = run_paired(check_command(tool, DLPACK_USM_FIXTURE_ONE_BUG, jobs),
                             check_command(tool, DLPACK_USM_FIXTURE_PRODUCER, jobs), rounds, 1);
  double ratio = paired.median_ratio();
  fmt::print("{:<34} {:>8} {:>8}\n", "", "median s", "min s");
  fmt::print("{:<34} {:>8.2f} {:>8.2f}\n", "one bug (ignores byte_offset)",
             paired.median_a_ms() / 1000, paired.min_a_ms() / 1000);
  fmt::print("{:<34} {:>8.2f} {:>8.2f}\n", "correct producer", paired.median_b_ms() / 1000,
             paired.min_b_ms() / 1000);
  fmt::print("ratio {:.2f} (bound {:.1f}x): {}\n", ratio, kBound, verdict(ratio, kBound));
  if (!exits_as_expected(paired)) {
    fmt::print(
        "  a run did not exit as expected (1 for the bug, 0 for the correct one, exits "
        "{} and {}): its times are no figure\n",
        paired.a.front().exit_code, paired.b.front().exit_code);
    return 1;
  }
  return 0;
}
