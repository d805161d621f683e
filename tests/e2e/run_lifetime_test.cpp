// No process of a run outlives it: the end of a case, SIGKILL of `check`
// itself, or of its process group, while its workers run a hanging library
// that starts daemons, leaves no worker and no daemon behind (workers die
// with their parent: PR_SET_PDEATHSIG; what they start dies with their PID
// namespace).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

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

// True when no helper holds its shared lock on `file` any more: each helper
// holds one while it lives (the pids it writes are its PID namespace's).
bool no_helper_alive(const fs::path& file) {
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  bool free = flock(fd, LOCK_EX | LOCK_NB) == 0;
  close(fd);
  return free;
}

std::vector<pid_t> pids_in(const fs::path& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (long pid; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  return pids;
}

enum class Ending { case_timeout, kill_run, kill_group };

// The library under test hangs in every case after starting a helper daemon
// (setsid and a double fork: outside the worker's process group, not its
// child). However the run ends — its watchdog killing the case, SIGKILL of
// `check`, SIGKILL of its process group — no worker and no helper is left.
TEST(RunLifetime, NoWorkerAndNoHelperOfALibraryOutlivesTheRun) {
  for (Ending ending : {Ending::case_timeout, Ending::kill_run, Ending::kill_group}) {
    SCOPED_TRACE(static_cast<int>(ending));
    // A directory of its own names this run's processes: every worker gets
    // it as --suite (a library run reads no suite).
    fs::path marker = fs::temp_directory_path() /
                      fmt::format("dlpack-usm-lifetime-{}-{}", getpid(), static_cast<int>(ending));
    fs::create_directories(marker);
    fs::path helper_pids = marker / "helpers.txt";
    std::string library =
        (fs::path(DLPACK_USM_FIXTURE_PLUGIN_DIR) / "libfixture_consumer_daemon_hang.so").string();
    const char* timeout = ending == Ending::case_timeout ? "1" : "60";
    pid_t run = fork();
    if (run == 0) {
      setpgid(0, 0);
      if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) {
        _exit(126);
      }
      setenv("DLPACK_USM_FIXTURE_HELPER_PIDS", helper_pids.c_str(), 1);
      execl(DLPACK_USM_BINARY, DLPACK_USM_BINARY, "check", "--consumer", library.c_str(),
            "--filter", "consumer/*/device/c-order", "--timeout", timeout, "--suite",
            marker.c_str(), "--runtime", "opencl", static_cast<char*>(nullptr));
      _exit(127);
    }
    ASSERT_GT(run, 0);
    bool helper_started =
        wait_until([&] { return !pids_in(helper_pids).empty(); }, std::chrono::seconds(30));
    ASSERT_TRUE(helper_started) << "the library started no helper";
    if (ending == Ending::kill_run) kill(run, SIGKILL);
    if (ending == Ending::kill_group) kill(-run, SIGKILL);
    int status = 0;
    waitpid(run, &status, 0);
    if (ending == Ending::case_timeout) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    }
    bool none_left = wait_until(
        [&] { return processes_with(marker.string()).empty() && no_helper_alive(helper_pids); },
        std::chrono::seconds(5));
    EXPECT_TRUE(none_left) << "processes of the run were left behind";
    // Leave no mess behind, whatever happened.
    for (pid_t pid : processes_with(marker.string())) kill(pid, SIGKILL);
    fs::remove_all(marker);
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
