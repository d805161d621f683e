#include "common/contained_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "common/unique_fd.hpp"

namespace dlpack_usm {
namespace {

using Clock = std::chrono::steady_clock;

// In the child: its own process group (so the whole group can be killed),
// death with the parent, the default action of every fatal signal (the
// parent's page-guarded reader handles SIGSEGV; a crash here must end the
// child), quiet stdout and stderr.
void become_contained_child() {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGPIPE, SIGTERM, SIGINT}) {
    std::signal(signal_number, SIG_DFL);
  }
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
}

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Reads the child's answer until it closes the pipe, the deadline or the
// bound; true when the pipe closed in time.
bool read_answer(int fd, Clock::time_point deadline, std::size_t max_bytes, std::string& text) {
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd ready{fd, POLLIN, 0};
    int polled = poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno == EINTR) continue;
    if (polled <= 0) return false;
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    // More than the bound is read and dropped, so that the child never
    // blocks on a full pipe.
    std::size_t keep = std::min(static_cast<std::size_t>(n), max_bytes - text.size());
    text.append(buffer, keep);
  }
}

// How a reaped child ended, and the answer it gave.
ContainedAnswer ending_of(int status, std::string text) {
  ContainedAnswer answer;
  answer.text = std::move(text);
  if (WIFSIGNALED(status)) {
    const char* name = strsignal(WTERMSIG(status));
    answer.ending = ContainedAnswer::Ending::signalled;
    answer.how = fmt::format("died on signal {} ({})", WTERMSIG(status), name ? name : "unknown");
  } else if (WEXITSTATUS(status) != 0) {
    answer.ending = ContainedAnswer::Ending::exited;
    answer.how = fmt::format("exited with status {}", WEXITSTATUS(status));
  } else {
    answer.ending = ContainedAnswer::Ending::answered;
    answer.how = "answered";
  }
  return answer;
}

// Kills the child's process group and reaps the child.
void kill_and_reap(pid_t pid, int& status) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// Reaps the child before `deadline`: false when it is still running then.
// A child that closed its pipe is usually a moment from its end: the first
// pauses are short (a probe is on the path of every list-devices), later
// ones up to 2 ms.
bool reap_by(pid_t pid, Clock::time_point deadline, int& status) {
  useconds_t pause = 50;
  while (true) {
    pid_t reaped = waitpid(pid, &status, WNOHANG);
    if (reaped == pid) return true;
    if (reaped < 0 && errno != EINTR) return true;
    if (Clock::now() >= deadline) return false;
    usleep(pause);
    pause = std::min<useconds_t>(pause * 2, 2000);
  }
}

// Waits for the child `pid` writing to `fd` until `end`, `deadline` after
// its start; kills its group then (also one that closed the pipe and
// lingers).
ContainedAnswer collect_answer(pid_t pid, UniqueFd fd, Clock::time_point end,
                               std::chrono::milliseconds deadline, std::size_t max_bytes) {
  std::string text;
  bool closed = read_answer(fd.get(), end, max_bytes, text);
  fd.reset();
  int status = 0;
  if (!closed || !reap_by(pid, end, status)) {
    kill_and_reap(pid, status);
    ContainedAnswer hung;
    hung.ending = ContainedAnswer::Ending::hung;
    hung.text = std::move(text);
    hung.how = fmt::format("did not answer within {:.0f} s",
                           std::ceil(static_cast<double>(deadline.count()) / 1000.0));
    return hung;
  }
  // Whatever the child left in its group dies with the call.
  kill(-pid, SIGKILL);
  return ending_of(status, std::move(text));
}

ContainedAnswer fork_failed() {
  ContainedAnswer failed;
  failed.how = fmt::format("could not start a child process: {}", std::strerror(errno));
  return failed;
}

}  // namespace

// In the children below, raw calls on get() close and duplicate the pipe's
// ends: a child leaves through exec or _exit, where its copies of the
// owners close nothing.
ContainedCall::ContainedCall(const std::function<std::string()>& body,
                             std::chrono::milliseconds deadline, std::size_t max_bytes)
    : end_(Clock::now() + deadline), deadline_(deadline), max_bytes_(max_bytes) {
  UniqueFd read_end, write_end;
  if (!open_pipe(read_end, write_end, O_CLOEXEC)) {
    failed_ = fork_failed();
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    failed_ = fork_failed();
    return;
  }
  if (pid == 0) {
    close(read_end.get());
    become_contained_child();
    write_all(write_end.get(), body());
    _exit(0);
  }
  pid_ = pid;
  read_fd_ = read_end.release();
}

ContainedCall::~ContainedCall() {
  if (pid_ < 0) return;
  close(read_fd_);
  int status = 0;
  kill_and_reap(pid_, status);
}

ContainedAnswer ContainedCall::collect() {
  if (pid_ < 0) return failed_;
  pid_t pid = std::exchange(pid_, -1);
  return collect_answer(pid, UniqueFd(read_fd_), end_, deadline_, max_bytes_);
}

ContainedAnswer call_contained(const std::function<std::string()>& body,
                               std::chrono::milliseconds deadline, std::size_t max_bytes) {
  return ContainedCall(body, deadline, max_bytes).collect();
}

ContainedAnswer run_program(const std::vector<std::string>& argv,
                            std::chrono::milliseconds deadline, std::size_t max_bytes) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  UniqueFd read_end, write_end;
  if (argv.empty() || !open_pipe(read_end, write_end, O_CLOEXEC)) return fork_failed();
  pid_t pid = fork();
  if (pid < 0) return fork_failed();
  if (pid == 0) {
    become_contained_child();
    dup2(write_end.get(), STDOUT_FILENO);
    execvp(args[0], args.data());
    _exit(127);
  }
  write_end.reset();
  ContainedAnswer answer =
      collect_answer(pid, std::move(read_end), Clock::now() + deadline, deadline, max_bytes);
  if (answer.ending == ContainedAnswer::Ending::exited && answer.how.ends_with("127")) {
    answer.how = "could not be run (exit status 127: not found or not executable)";
  }
  return answer;
}

std::chrono::milliseconds probe_deadline(std::chrono::milliseconds fallback) {
  const char* text = std::getenv("DLPACK_USM_PROBE_TIMEOUT_S");
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  double seconds = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 3600) {
    return fallback;
  }
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

}  // namespace dlpack_usm
