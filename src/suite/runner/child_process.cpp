#include "suite/runner/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/launch_environment.hpp"
#include "common/unique_fd.hpp"

namespace dlpack_usm::suite {
namespace {

// Enough of a child's chatter to explain a crash; the rest is dropped so a
// runaway child cannot exhaust the runner's memory.
constexpr std::size_t kMaxCapturedBytes = 1 << 20;

// The descriptors of a child in the making: the runner keeps `out`, `err`
// and `result`; the child gets the `*_child` ends, which the runner closes
// once it has started.
struct ChildEnds {
  UniqueFd out, out_child;
  UniqueFd err, err_child;
  UniqueFd result, result_child;
};

// Throws for the call `what` that failed; the ends opened so far close as
// it leaves.
[[noreturn]] void fail_to_open(const char* what) {
  throw Error(ExitCode::internal, fmt::format("{} failed: {}", what, std::strerror(errno)));
}

// Every end close-on-exec; the child's end of the channel above the standard
// descriptors, so that dup2 onto kResultFd never meets itself. The channel
// is a socket pair: the nonce goes to the child through it.
ChildEnds open_child_ends() {
  ChildEnds ends;
  if (!open_pipe(ends.out, ends.out_child, O_CLOEXEC)) fail_to_open("pipe");
  if (!open_pipe(ends.err, ends.err_child, O_CLOEXEC)) fail_to_open("pipe");
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) fail_to_open("socketpair");
  ends.result.reset(fds[0]);
  UniqueFd low_child_end(fds[1]);
  ends.result_child.reset(fcntl(low_child_end.get(), F_DUPFD_CLOEXEC, 10));
  if (!ends.result_child) fail_to_open("fcntl");
  return ends;
}

// A memory file holding `input`, read from its start, close-on-exec (the
// child gets its own copy as stdin); none for an empty input.
UniqueFd input_file(const std::string& input) {
  if (input.empty()) return {};
  UniqueFd file(memfd_create("dlpack-usm-worker-input", MFD_CLOEXEC));
  if (!file) fail_to_open("memfd_create");
  for (std::size_t written = 0; written < input.size();) {
    ssize_t n = write(file.get(), input.data() + written, input.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_to_open("write");
    written += static_cast<std::size_t>(n);
  }
  if (lseek(file.get(), 0, SEEK_SET) != 0) fail_to_open("lseek");
  return file;
}

// posix_spawn's status: argv[0] in a process group of its own, stdin from
// `input` (/dev/null where it is none), the child ends on 1, 2 and kResultFd.
int spawn_child(const std::vector<std::string>& argv, const ChildEnds& ends, const UniqueFd& input,
                pid_t* pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (input) {
    posix_spawn_file_actions_adddup2(&actions, input.get(), 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, ends.out_child.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, ends.err_child.get(), 2);
  posix_spawn_file_actions_adddup2(&actions, ends.result_child.get(), kResultFd);
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

// The nonce, then, unless the child takes more, the runner's direction of
// the channel is closed: the child only ever reads this one line. Sent while
// the runner still holds the child's end, so it cannot fail for want of a
// reader.
void send_nonce(int fd, const std::string& nonce, ChildProcess::Channel channel) {
  std::string line = nonce + "\n";
  ssize_t sent = send(fd, line.data(), line.size(), MSG_NOSIGNAL);
  if (sent != static_cast<ssize_t>(line.size())) {
    throw Error(ExitCode::internal,
                fmt::format("sending a worker its nonce failed: {}", std::strerror(errno)));
  }
  if (channel == ChildProcess::Channel::results_only) shutdown(fd, SHUT_WR);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, Clock::duration timeout,
                           const std::string& input, Channel channel)
    : takes_more_(channel == Channel::takes_more), nonce_(make_channel_nonce()) {
  ChildEnds ends = open_child_ends();
  UniqueFd stdin_file = input_file(input);
  started_ = Clock::now();
  deadline_ = started_ + timeout;
  if (int status = spawn_child(argv, ends, stdin_file, &pid_); status != 0) {
    pid_ = -1;
    throw Error(ExitCode::internal,
                fmt::format("cannot start {}: {}", argv.front(), std::strerror(status)));
  }
  try {
    send_nonce(ends.result.get(), nonce_, channel);
  } catch (const Error&) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    throw;
  }
  out_fd_ = std::move(ends.out);
  err_fd_ = std::move(ends.err);
  result_fd_ = std::move(ends.result);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      out_fd_(std::move(other.out_fd_)),
      err_fd_(std::move(other.err_fd_)),
      result_fd_(std::move(other.result_fd_)),
      started_(other.started_),
      deadline_(other.deadline_),
      ended_(other.ended_),
      takes_more_(other.takes_more_),
      timed_out_(other.timed_out_),
      reaped_(std::exchange(other.reaped_, true)),
      exited_(other.exited_),
      exit_code_(other.exit_code_),
      signal_(other.signal_),
      out_(std::move(other.out_)),
      err_(std::move(other.err_)),
      results_(std::move(other.results_)),
      nonce_(std::move(other.nonce_)) {}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_) {
    kill_group();
    wait();
  }
}

std::vector<int> ChildProcess::open_fds() const {
  std::vector<int> fds;
  for (const UniqueFd* fd : {&out_fd_, &err_fd_, &result_fd_}) {
    if (*fd) fds.push_back(fd->get());
  }
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
  bool out = fd == out_fd_.get();
  bool err = fd == err_fd_.get();
  if (n > 0) {
    std::string& sink = out ? out_ : err ? err_ : results_;
    if (sink.size() < kMaxCapturedBytes) sink.append(buffer, static_cast<std::size_t>(n));
    return;
  }
  (out ? out_fd_ : err ? err_fd_ : result_fd_).reset();
}

bool ChildProcess::send_more(std::string_view text) {
  if (!takes_more() || text.empty()) return false;
  ssize_t sent = 0;
  do {
    sent = send(result_fd_.get(), text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } while (sent < 0 && errno == EINTR);
  if (sent == static_cast<ssize_t>(text.size())) return true;
  // A part sent would leave the child half a line: it gets the end instead.
  if (sent > 0) end_more();
  return false;
}

void ChildProcess::end_more() {
  if (takes_more()) shutdown(result_fd_.get(), SHUT_WR);
  takes_more_ = false;
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
  out_fd_.reset();
  err_fd_.reset();
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
