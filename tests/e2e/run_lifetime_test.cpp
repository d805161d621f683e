// No process of a run outlives it: SIGKILL of `check` itself, or of its
// process group, while its workers run a hanging library, leaves no worker
// behind (they die with their parent: PR_SET_PDEATHSIG).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

// Pids of processes whose command line contains `marker`.
std::vector<pid_t> processes_with(const std::string& marker) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "cmdline");
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(marker) != std::string::npos) found.push_back(std::stoi(name));
  }
  return found;
}

bool wait_until(const std::function<bool()>& condition, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return condition();
}

TEST(RunLifetime, KillingTheRunOrItsGroupLeavesNoWorker) {
  for (bool whole_group : {false, true}) {
    // A directory of its own names this run's processes: every worker gets
    // it as --suite (a library run reads no suite).
    fs::path marker =
        fs::temp_directory_path() /
        ("dlpack-usm-lifetime-" + std::to_string(getpid()) + (whole_group ? "-group" : "-parent"));
    fs::create_directories(marker);
    // A path, not string + literal: GCC 12 raises a false -Warray-bounds there.
    std::string hang =
        (fs::path(DLPACK_USM_FIXTURE_PLUGIN_DIR) / "libfixture_consumer_hang.so").string();
    pid_t run = fork();
    if (run == 0) {
      setpgid(0, 0);
      if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) {
        _exit(126);
      }
      execl(DLPACK_USM_BINARY, DLPACK_USM_BINARY, "check", "--consumer", hang.c_str(), "--filter",
            "consumer/*", "--timeout", "60", "--suite", marker.c_str(), "--runtime", "opencl",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    ASSERT_GT(run, 0);
    bool workers_started = wait_until(
        [&] {
          for (pid_t pid : processes_with(marker.string())) {
            if (pid != run) return true;
          }
          return false;
        },
        std::chrono::seconds(20));
    ASSERT_TRUE(workers_started) << "no worker of the run appeared";
    kill(whole_group ? -run : run, SIGKILL);
    waitpid(run, nullptr, 0);
    bool none_left = wait_until([&] { return processes_with(marker.string()).empty(); },
                                std::chrono::seconds(5));
    for (pid_t pid : processes_with(marker.string())) kill(pid, SIGKILL);  // leave no mess behind
    EXPECT_TRUE(none_left) << (whole_group ? "SIGKILL of the run's group" : "SIGKILL of the run")
                           << " left workers behind";
    fs::remove_all(marker);
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
