#include "child_run.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace dlpack_usm::bench {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::vector<double> walls(const std::vector<ChildRun>& runs) {
  std::vector<double> ms;
  for (const ChildRun& run : runs) ms.push_back(run.wall_ms);
  return ms;
}

}  // namespace

ChildRun run_child(const std::vector<std::string>& argv, bool keep_stderr) {
  auto started = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    if (!keep_stderr) dup2(null, STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  ChildRun run;
  run.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.peak_kib = usage.ru_maxrss;
  return run;
}

double Paired::median_a_ms() const {
  return median(walls(a));
}

double Paired::median_b_ms() const {
  return median(walls(b));
}

double Paired::min_a_ms() const {
  std::vector<double> ms = walls(a);
  return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
}

double Paired::min_b_ms() const {
  std::vector<double> ms = walls(b);
  return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
}

double Paired::median_ratio() const {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (b[i].wall_ms > 0) ratios.push_back(a[i].wall_ms / b[i].wall_ms);
  }
  return median(ratios);
}

bool Paired::all_succeeded() const {
  auto ok = [](const ChildRun& run) { return run.exit_code == 0; };
  return std::all_of(a.begin(), a.end(), ok) && std::all_of(b.begin(), b.end(), ok);
}

Paired run_paired(const std::vector<std::string>& a, const std::vector<std::string>& b, int rounds,
                  int warm_up) {
  for (int i = 0; i < warm_up; ++i) {
    run_child(a);
    run_child(b);
  }
  Paired paired;
  for (int i = 0; i < rounds; ++i) {
    if (i % 2 == 0) {
      paired.a.push_back(run_child(a));
      paired.b.push_back(run_child(b));
    } else {
      paired.b.push_back(run_child(b));
      paired.a.push_back(run_child(a));
    }
  }
  return paired;
}

double load_average() {
  std::ifstream loadavg("/proc/loadavg");
  double one_minute = 0;
  loadavg >> one_minute;
  return one_minute;
}

const char* verdict(double ratio, double bound) {
  return ratio <= bound ? "within" : "OVER";
}

std::string option(int argc, char** argv, const char* name, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == name) return argv[i + 1];
  }
  return fallback;
}

std::string tools_python() {
  const char* prefix = std::getenv("DLPACK_USM_TOOLS_PREFIX");
  return std::string(prefix != nullptr && *prefix ? prefix : "/opt/dlpack-usm/venv") +
         "/bin/python";
}

}  // namespace dlpack_usm::bench
