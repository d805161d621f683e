// Runs a program as a user would, for the benchmarks that compare the tool
// with other programs (clinfo -l, python -m dpctl -f, json.loads): its wall
// time and the peak resident set of that child alone, its output discarded.
// Paired runs alternate two programs round by round, in turns of order, so a
// busy neighbour or a clock change shifts both, as hyperfine's do not.
#pragma once

#include <string>
#include <vector>

namespace dlpack_usm::bench {

struct ChildRun {
  int exit_code = -1;  // 128 + N for signal N; 127 when it could not start
  double wall_ms = 0;
  long peak_kib = 0;  // ru_maxrss of the child
};

// `argv[0]` is looked up on PATH where it has no '/'. stdout goes to
// /dev/null, stderr too unless `keep_stderr`.
ChildRun run_child(const std::vector<std::string>& argv, bool keep_stderr = false);

struct Paired {
  std::vector<ChildRun> a;
  std::vector<ChildRun> b;
  double median_a_ms() const;
  double median_b_ms() const;
  double min_a_ms() const;
  double min_b_ms() const;
  // The median of the rounds' ratios a/b: each round's pair saw one machine.
  double median_ratio() const;
  bool all_succeeded() const;
};

// `warm_up` rounds untimed (caches, the dpctl location), then `rounds`
// rounds of both, a first in even rounds and b first in odd ones.
Paired run_paired(const std::vector<std::string>& a, const std::vector<std::string>& b, int rounds,
                  int warm_up);

// The load average over the last minute, for the header of a report: a
// figure taken on a busy machine says so.
double load_average();

// "within", or "OVER" where `ratio` exceeds `bound`.
const char* verdict(double ratio, double bound);

// The value after `name` on the command line ("--rounds 10"), or `fallback`.
std::string option(int argc, char** argv, const char* name, const std::string& fallback);

// The interpreter scripts/setup.sh prepared ($DLPACK_USM_TOOLS_PREFIX/bin/
// python, /opt/dlpack-usm/venv by default), where dpctl and the peers are.
std::string tools_python();

}  // namespace dlpack_usm::bench
