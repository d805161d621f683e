#include "tool_process.hpp"

#include "common/launch_environment.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dlpack_usm::e2e {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> merged_environment(const ToolEnvironment& env) {
  std::map<std::string, std::string> variables;
  // As the test started: the tests' own OpenCL calls may have changed it.
  for (const std::string& text : launch_environment()) {
    std::size_t eq = text.find('=');
    if (eq != std::string::npos) variables[text.substr(0, eq)] = text.substr(eq + 1);
  }
  // The width of the terminal the tests were started from would fit text
  // output to it: a test that wants a width sets COLUMNS itself.
  variables.erase("COLUMNS");
  for (const auto& [name, value] : env.changes) {
    if (value) {
      variables[name] = *value;
    } else {
      variables.erase(name);
    }
  }
  std::vector<std::string> flat;
  for (const auto& [name, value] : variables) flat.push_back(name + "=" + value);
  return flat;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

int milliseconds_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 1000));
}

}  // namespace

RunningTool::RunningTool(const std::vector<std::string>& arguments, const ToolEnvironment& env) {
  int out_pipe[2], err_pipe[2], in_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      pipe2(in_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> argv_strings{DLPACK_USM_BINARY};
  argv_strings.insert(argv_strings.end(), arguments.begin(), arguments.end());
  std::vector<std::string> env_strings = merged_environment(env);
  std::vector<char*> argv = pointers(argv_strings);
  std::vector<char*> envp = pointers(env_strings);
  int spawned =
      posix_spawn(&pid_, DLPACK_USM_BINARY, &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  out_fd_ = out_pipe[0];
  err_fd_ = err_pipe[0];
  if (spawned != 0) throw std::runtime_error(std::string("spawn failed: ") + strerror(spawned));
  // Small inputs only: written before reading, which fits in a pipe buffer.
  if (!env.stdin_text.empty()) {
    ssize_t ignored = write(in_pipe[1], env.stdin_text.data(), env.stdin_text.size());
    (void)ignored;
  }
  close(in_pipe[1]);
}

RunningTool::~RunningTool() {
  if (pid_ > 0 && !reaped_) {
    kill(-pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

void RunningTool::signal(int number) const {
  kill(pid_, number);
}

ToolResult RunningTool::finish(std::chrono::milliseconds limit) {
  ToolResult result;
  Clock::time_point deadline = Clock::now() + limit;
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  for (int open_streams = 2; open_streams > 0;) {
    if (Clock::now() >= deadline) {
      result.timed_out = true;
      kill(-pid_, SIGKILL);
      break;
    }
    if (poll(fds, 2, milliseconds_until(deadline)) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[65536];
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else {
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  int status = 0;
  waitpid(pid_, &status, 0);
  reaped_ = true;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ToolResult run_tool(const std::vector<std::string>& arguments, const ToolEnvironment& env) {
  // No test of a finished command needs more; ctest's own timeout is 300 s.
  return RunningTool(arguments, env).finish(std::chrono::minutes(4));
}

Notifications::Notifications(std::filesystem::path path) : path_(std::move(path)) {
  std::filesystem::remove(path_);
  if (mkfifo(path_.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
  read_fd_ = open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  keep_open_fd_ = open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (read_fd_ < 0 || keep_open_fd_ < 0) throw std::runtime_error("opening the FIFO failed");
}

Notifications::~Notifications() {
  close(read_fd_);
  close(keep_open_fd_);
  std::filesystem::remove(path_);
}

bool Notifications::wait_for(const std::string& event, std::chrono::milliseconds limit) {
  Clock::time_point deadline = Clock::now() + limit;
  for (;;) {
    for (std::size_t start = 0, end; (end = received_.find('\n', start)) != std::string::npos;
         start = end + 1) {
      if (received_.compare(start, end - start, event) == 0) {
        received_.erase(0, end + 1);
        return true;
      }
    }
    if (Clock::now() >= deadline) return false;
    pollfd fd{read_fd_, POLLIN, 0};
    if (poll(&fd, 1, milliseconds_until(deadline)) <= 0) continue;
    char buffer[4096];
    ssize_t n = read(read_fd_, buffer, sizeof buffer);
    if (n > 0) received_.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string source_path(const std::string& relative) {
  // Appends, not string + "/": GCC 12 raises a false -Warray-bounds on that
  // temporary where the source directory is 15 characters long, the end of
  // std::string's inline buffer (/work/wt-dlpack).
  std::string path(DLPACK_USM_SOURCE_DIR);
  path.append("/").append(relative);
  return path;
}

}  // namespace dlpack_usm::e2e
