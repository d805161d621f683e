#include "suite/runner/worker_containment.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/unique_fd.hpp"

namespace dlpack_usm::suite {
namespace {

bool write_proc_file(const char* path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

// DLPACK_USM_CONTAINMENT=subreaper: the fallback even where namespaces
// work, to test it, or where a machine's namespaces misbehave.
bool fallback_forced() {
  const char* containment = std::getenv("DLPACK_USM_CONTAINMENT");
  return containment != nullptr && std::string_view(containment) == "subreaper";
}

// A new PID namespace for the children to come, with a mount namespace of
// their own where their init can mount the /proc of that PID namespace; as
// an unprivileged user inside a user namespace of its own that maps only the
// caller's ids. Without the mount namespace where it is refused.
// `own_mounts` says whether the mount namespace is the worker's.
bool unshare_pid_namespace(bool& own_mounts) {
  if (fallback_forced()) return false;
  own_mounts = unshare(CLONE_NEWPID | CLONE_NEWNS) == 0;
  if (own_mounts || unshare(CLONE_NEWPID) == 0) return true;
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (uid == 0) return false;
  own_mounts = unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) == 0;
  if (!own_mounts && unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0) return false;
  write_proc_file("/proc/self/setgroups", "deny");
  write_proc_file("/proc/self/uid_map", fmt::format("{} {} 1", uid, uid));
  write_proc_file("/proc/self/gid_map", fmt::format("{} {} 1", gid, gid));
  return true;
}

// The /proc of the worker's own PID namespace, mounted by its init: with
// the runner's /proc, CUDA's runtime fails to start in the worker
// (cudaErrorOperatingSystem, seen with cupy and torch on the GPU machine),
// so no CUDA case could run. Changes nothing outside: the mount namespace is
// the worker's (made private first, so the mount does not propagate back).
// Only in a mount namespace of the worker's: elsewhere the mounts are the
// machine's. Where the mount fails the worker keeps the runner's /proc.
void mount_own_proc() {
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return;
  mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
}

// Points the standard descriptors and the result channel at /dev/null, so
// that only the worker holds the runner's pipes: the runner sees end of file
// when the worker is gone.
void let_go_of_output() {
  int null = open("/dev/null", O_RDWR);
  for (int fd = 0; fd <= 3 && null >= 0; ++fd) {
    if (fd != null) dup2(null, fd);
  }
}

// Dies as `status` says: a crash stays a crash for the runner.
[[noreturn]] void exit_like(int status) {
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    prctl(PR_SET_DUMPABLE, 0);  // the worker dumped core already if it was to
    raise(WTERMSIG(status));
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

// The waiter, outside the namespace: dies as the worker died, which its init
// reports on `status_pipe` (init itself cannot die of a signal it raises).
[[noreturn]] void wait_outside(pid_t init, int status_pipe) {
  let_go_of_output();
  int init_status = 0;
  while (waitpid(init, &init_status, 0) < 0 && errno == EINTR) {
  }
  int worker_status = 0;
  if (read(status_pipe, &worker_status, sizeof worker_status) ==
      static_cast<ssize_t>(sizeof worker_status)) {
    exit_like(worker_status);
  }
  exit_like(init_status);
}

// PID 1 of the namespace: reaps the orphans the library's helpers leave,
// until the worker ends; its exit then makes the kernel kill the rest.
[[noreturn]] void run_init(pid_t worker, int status_pipe) {
  let_go_of_output();
  for (;;) {
    int status = 0;
    pid_t ended = waitpid(-1, &status, 0);
    if (ended < 0 && errno == EINTR) continue;
    if (ended == worker || ended < 0) {
      if (write(status_pipe, &status, sizeof status) < 0) _exit(1);
      _exit(0);
    }
  }
}

// True when the process that holds the write end of `pipe_read_end` is
// gone; after PR_SET_PDEATHSIG this closes the race with the parent's death.
bool parent_gone(UniqueFd pipe_read_end) {
  pollfd parent{pipe_read_end.get(), POLLIN, 0};
  return poll(&parent, 1, 0) > 0;
}

// A close-on-exec pipe above the descriptors a worker uses (0-2 and the
// result channel, 3), which a run by hand may leave free for pipe() to take.
bool private_pipe(UniqueFd& read_end, UniqueFd& write_end) {
  UniqueFd low_read, low_write;
  if (!open_pipe(low_read, low_write, O_CLOEXEC)) return false;
  read_end.reset(fcntl(low_read.get(), F_DUPFD_CLOEXEC, 10));
  write_end.reset(fcntl(low_write.get(), F_DUPFD_CLOEXEC, 10));
  return read_end && write_end;
}

// Every child of this process, from /proc (the kernel's own list).
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  std::ifstream list("/proc/thread-self/children");
  if (!list) list.open(fmt::format("/proc/self/task/{}/children", gettid()));
  for (long pid; list >> pid;) children.push_back(static_cast<pid_t>(pid));
  return children;
}

// Kills what is left of the children of this process: the orphans of the
// library's helpers handed to it as the subreaper.
void kill_leftovers() {
  for (int round = 0; round < 8; ++round) {
    std::vector<pid_t> children = own_children();
    if (children.empty()) return;
    for (pid_t child : children) kill(child, SIGKILL);
    for (pid_t child : children) waitpid(child, nullptr, 0);
  }
}

// The guard of a worker without a namespace: the subreaper of what the
// library leaves, and the worker's parent, so that a library that kills
// its parent kills the guard (and with it the worker), never the runner.
// Dies as the worker died, once it killed the leftovers.
[[noreturn]] void guard_worker(pid_t worker) {
  let_go_of_output();
  int status = 0;
  while (waitpid(worker, &status, 0) < 0 && errno == EINTR) {
  }
  kill_leftovers();
  exit_like(status);
}

// The worker's guard under the subreaper containment (0 otherwise): a
// library that kills it ends the worker by the parent-death signal, but only
// once the guard has died, after the worker may have finished its case.
pid_t g_guard = 0;

// Whether /proc/PID/status shows `pid` dead, dying or with a SIGKILL
// pending: kill() returns once the signal is queued, before the process
// ends.
bool status_says_killed(pid_t pid) {
  std::ifstream status(fmt::format("/proc/{}/status", pid));
  if (!status) return true;
  constexpr unsigned long long kKillBit = 1ULL << (SIGKILL - 1);
  for (std::string line; std::getline(status, line);) {
    std::string_view view(line);
    std::string_view value = view.substr(std::min(view.size(), view.find(':') + 1));
    while (!value.empty() && (value.front() == '\t' || value.front() == ' '))
      value.remove_prefix(1);
    if (view.rfind("State:", 0) == 0 && !value.empty() && (value[0] == 'Z' || value[0] == 'X')) {
      return true;
    }
    if ((view.rfind("SigPnd:", 0) == 0 || view.rfind("ShdPnd:", 0) == 0) &&
        (std::strtoull(std::string(value).c_str(), nullptr, 16) & kKillBit) != 0) {
      return true;
    }
  }
  return false;
}

// Without a namespace: the guard stays, the worker goes on in its child.
// False where the fork failed or the guard is gone already.
bool contain_in_subreaper() {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  UniqueFd guard_alive_read, guard_alive_write;
  if (!private_pipe(guard_alive_read, guard_alive_write)) return false;
  pid_t worker = fork();
  if (worker < 0) return false;
  if (worker > 0) {
    guard_alive_read.reset();
    guard_worker(worker);
  }
  guard_alive_write.reset();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  g_guard = getppid();
  // For a Python worker, which this process becomes (guard_killed in
  // dlpack_usm._worker).
  setenv(kWorkerGuardVariable, std::to_string(g_guard).c_str(), 1);
  return !parent_gone(std::move(guard_alive_read));
}

}  // namespace

bool contain_worker(long runner_pid, Containment* how) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  unsetenv(kWorkerGuardVariable);  // a guard of a run around this one is none of ours
  if (runner_pid != 0 && getppid() != static_cast<pid_t>(runner_pid)) return false;
  bool own_mounts = false;
  if (!unshare_pid_namespace(own_mounts)) {
    if (how != nullptr) *how = Containment::subreaper;
    return contain_in_subreaper();
  }
  // waiter (outside) -> init (PID 1 inside) -> worker (PID 2): the worker
  // is no namespace init, so the signals a library raises act as usual. The
  // process is single-threaded still, so each side of a fork may close its
  // copies of the pipes through their owners.
  UniqueFd status_read, status_write, waiter_alive_read, waiter_alive_write;
  if (!private_pipe(status_read, status_write) ||
      !private_pipe(waiter_alive_read, waiter_alive_write)) {
    return false;
  }
  pid_t init = fork();
  if (init < 0) return false;
  if (init > 0) {
    status_write.reset();
    waiter_alive_read.reset();
    wait_outside(init, status_read.get());
  }
  status_read.reset();
  waiter_alive_write.reset();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (parent_gone(std::move(waiter_alive_read))) _exit(1);
  if (own_mounts) mount_own_proc();
  UniqueFd init_alive_read, init_alive_write;
  if (!private_pipe(init_alive_read, init_alive_write)) _exit(1);
  pid_t worker = fork();
  if (worker < 0) _exit(1);
  if (worker > 0) {
    init_alive_read.reset();
    run_init(worker, status_write.get());
  }
  status_write.reset();
  init_alive_write.reset();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (parent_gone(std::move(init_alive_read))) _exit(1);
  if (how != nullptr) *how = Containment::pid_namespace;
  return true;
}

bool worker_guard_killed() {
  if (g_guard == 0) return false;
  return getppid() != g_guard || status_says_killed(g_guard);
}

void die_for_killed_guard() {
  static constexpr char kSaid[] =
      "dlpack-usm: the library killed the worker's guard, its parent process, during this "
      "case\n";
  if (write(STDERR_FILENO, kSaid, sizeof kSaid - 1) < 0) {
    // Nothing else to say it with: the death below still charges the case.
  }
  signal(SIGKILL, SIG_DFL);
  raise(SIGKILL);
  _exit(1);
}

void reap_worker_leftovers() {
  // The children the library started that are still running die with the
  // worker, as they would in a namespace, where the kernel kills them; the
  // orphans of its helpers go to the worker's guard or init, which kill
  // them once the worker ended.
  kill_leftovers();
}

}  // namespace dlpack_usm::suite
