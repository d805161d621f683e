#include "suite/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/launch_environment.hpp"

namespace dlpack_usm::suite {
namespace {

// Enough of a child's chatter to explain a crash; the rest is dropped so a
// runaway child cannot exhaust the runner's memory.
constexpr std::size_t kMaxCapturedBytes = 1 << 20;

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, Clock::duration timeout) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw Error(ExitCode::internal, fmt::format("pipe failed: {}", std::strerror(errno)));
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw Error(ExitCode::internal, fmt::format("pipe failed: {}", std::strerror(errno)));
  }
  // The result channel's write end above the standard descriptors, so that
  // dup2 onto kResultFd never meets itself (and keeps close-on-exec).
  int result_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[0]);
    close(err_pipe[1]);
    throw Error(ExitCode::internal, fmt::format("pipe failed: {}", std::strerror(errno)));
  }
  int result_writer = fcntl(result_pipe[1], F_DUPFD_CLOEXEC, 10);
  close(result_pipe[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_adddup2(&actions, result_writer, kResultFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);

  std::vector<std::string> strings = argv;
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  std::vector<std::string> environment = launch_environment();
  std::vector<char*> environment_pointers;
  for (std::string& entry : environment) environment_pointers.push_back(entry.data());
  environment_pointers.push_back(nullptr);
  started_ = Clock::now();
  deadline_ = started_ + timeout;
  int status = posix_spawn(&pid_, pointers[0], &actions, &attributes, pointers.data(),
                           environment_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(result_writer);
  out_fd_ = out_pipe[0];
  err_fd_ = err_pipe[0];
  result_fd_ = result_pipe[0];
  if (status != 0) {
    close_fd(out_fd_);
    close_fd(err_fd_);
    close_fd(result_fd_);
    pid_ = -1;
    throw Error(ExitCode::internal,
                fmt::format("cannot start {}: {}", argv.front(), std::strerror(status)));
  }
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_),
      out_fd_(other.out_fd_),
      err_fd_(other.err_fd_),
      result_fd_(other.result_fd_),
      started_(other.started_),
      deadline_(other.deadline_),
      ended_(other.ended_),
      timed_out_(other.timed_out_),
      reaped_(other.reaped_),
      exited_(other.exited_),
      exit_code_(other.exit_code_),
      signal_(other.signal_),
      out_(std::move(other.out_)),
      err_(std::move(other.err_)),
      results_(std::move(other.results_)) {
  other.pid_ = -1;
  other.out_fd_ = -1;
  other.err_fd_ = -1;
  other.result_fd_ = -1;
  other.reaped_ = true;
}

ChildProcess::~ChildProcess() {
  close_fd(out_fd_);
  close_fd(err_fd_);
  close_fd(result_fd_);
  if (pid_ > 0 && !reaped_) {
    kill_group();
    wait();
  }
}

std::vector<int> ChildProcess::open_fds() const {
  std::vector<int> fds;
  if (out_fd_ >= 0) fds.push_back(out_fd_);
  if (err_fd_ >= 0) fds.push_back(err_fd_);
  if (result_fd_ >= 0) fds.push_back(result_fd_);
  return fds;
}

std::vector<std::string> ChildProcess::take_result_lines() {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = results_.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(results_.substr(start, end - start));
  }
  results_.erase(0, start);
  return lines;
}

void ChildProcess::read_from(int fd) {
  char buffer[65536];
  ssize_t n = read(fd, buffer, sizeof buffer);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  std::string& sink = fd == out_fd_ ? out_ : fd == err_fd_ ? err_ : results_;
  if (n > 0) {
    if (sink.size() < kMaxCapturedBytes) sink.append(buffer, static_cast<std::size_t>(n));
    return;
  }
  close_fd(fd == out_fd_ ? out_fd_ : fd == err_fd_ ? err_fd_ : result_fd_);
}

void ChildProcess::kill_group() {
  if (pid_ <= 0 || reaped_) return;
  if (past_deadline()) timed_out_ = true;
  ::kill(-pid_, SIGKILL);
}

void ChildProcess::wait() {
  reap(true);
}

bool ChildProcess::reap(bool block) {
  if (pid_ <= 0 || reaped_) return true;
  int status = 0;
  pid_t result = 0;
  do {
    result = waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (result < 0 && errno == EINTR);
  if (result == 0) return false;
  reaped_ = true;
  ended_ = Clock::now();
  close_fd(out_fd_);
  close_fd(err_fd_);
  if (WIFEXITED(status)) {
    exited_ = true;
    exit_code_ = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    signal_ = WTERMSIG(status);
  }
  return true;
}

double ChildProcess::elapsed_ms() const {
  Clock::time_point end = reaped_ ? ended_ : Clock::now();
  return std::chrono::duration<double, std::milli>(end - started_).count();
}

}  // namespace dlpack_usm::suite
