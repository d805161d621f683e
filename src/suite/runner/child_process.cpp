#include "suite/runner/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
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

// The descriptors of a child in the making: the runner keeps `out`, `err`
// and `result`; the child gets the `*_child` ends.
struct ChildEnds {
  int out = -1, out_child = -1;
  int err = -1, err_child = -1;
  int result = -1, result_child = -1;

  void close_child_ends() {
    close_fd(out_child);
    close_fd(err_child);
    close_fd(result_child);
  }
  void close_all() {
    close_child_ends();
    close_fd(out);
    close_fd(err);
    close_fd(result);
  }
};

[[noreturn]] void fail_to_open(const char* what, ChildEnds& ends) {
  int error = errno;
  ends.close_all();
  throw Error(ExitCode::internal, fmt::format("{} failed: {}", what, std::strerror(error)));
}

// Every end close-on-exec; the child's end of the channel above the standard
// descriptors, so that dup2 onto kResultFd never meets itself. The channel
// is a socket pair: the nonce goes to the child through it.
ChildEnds open_child_ends() {
  ChildEnds ends;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) fail_to_open("pipe", ends);
  ends.out = fds[0];
  ends.out_child = fds[1];
  if (pipe2(fds, O_CLOEXEC) != 0) fail_to_open("pipe", ends);
  ends.err = fds[0];
  ends.err_child = fds[1];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    fail_to_open("socketpair", ends);
  }
  ends.result = fds[0];
  ends.result_child = fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
  close(fds[1]);
  if (ends.result_child < 0) fail_to_open("fcntl", ends);
  return ends;
}

// posix_spawn's status: argv[0] in a process group of its own, stdin from
// /dev/null, the child ends on 1, 2 and kResultFd.
int spawn_child(const std::vector<std::string>& argv, const ChildEnds& ends, pid_t* pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, ends.out_child, 1);
  posix_spawn_file_actions_adddup2(&actions, ends.err_child, 2);
  posix_spawn_file_actions_adddup2(&actions, ends.result_child, kResultFd);
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
  int status = posix_spawn(pid, pointers[0], &actions, &attributes, pointers.data(),
                           environment_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return status;
}

// The nonce, then the runner's direction of the channel is closed: the
// child only ever reads this one line. Sent while the runner still holds
// the child's end, so it cannot fail for want of a reader.
void send_nonce(int fd, const std::string& nonce) {
  std::string line = nonce + "\n";
  ssize_t sent = send(fd, line.data(), line.size(), MSG_NOSIGNAL);
  if (sent != static_cast<ssize_t>(line.size())) {
    throw Error(ExitCode::internal,
                fmt::format("sending a worker its nonce failed: {}", std::strerror(errno)));
  }
  shutdown(fd, SHUT_WR);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, Clock::duration timeout)
    : nonce_(make_channel_nonce()) {
  ChildEnds ends = open_child_ends();
  started_ = Clock::now();
  deadline_ = started_ + timeout;
  int status = spawn_child(argv, ends, &pid_);
  if (status == 0) {
    try {
      send_nonce(ends.result, nonce_);
    } catch (const Error&) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      ends.close_all();
      throw;
    }
  }
  ends.close_child_ends();
  out_fd_ = ends.out;
  err_fd_ = ends.err;
  result_fd_ = ends.result;
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
      results_(std::move(other.results_)),
      nonce_(std::move(other.nonce_)) {
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
  // A library that moved the child into another group (setpgid) took it
  // out of reach of the group's kill.
  ::kill(pid_, SIGKILL);
}

bool ChildProcess::wait(Clock::duration limit) {
  Clock::time_point give_up = Clock::now() + limit;
  while (!reap()) {
    if (Clock::now() >= give_up) return false;
    poll(nullptr, 0, 5);
  }
  return true;
}

bool ChildProcess::reap() {
  if (pid_ <= 0 || reaped_) return true;
  int status = 0;
  pid_t result = 0;
  do {
    result = waitpid(pid_, &status, WNOHANG);
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
