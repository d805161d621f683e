// Keeps every process a worker (or the plugin probe) starts inside the run:
// a library under test may fork helpers, and a helper that calls setsid()
// or double-forks leaves the worker's process group, so neither killing the
// group nor the parent-death signal reaches it. The kernel's means for that
// is a PID namespace: when its first process dies, the kernel kills every
// process in it.
#pragma once

namespace dlpack_usm::suite {

// How the calling worker is contained.
enum class Containment {
  pid_namespace,  // the worker runs as PID 1 of a namespace of its own
  subreaper,      // namespaces refused (a seccomp filter, no user namespaces): the
                  // worker runs in a child of a guard, the subreaper of its
                  // orphans, which kills them when the worker ends
};

// Called first thing in a worker, before any thread exists. The calling
// process dies with its parent (PR_SET_PDEATHSIG) and returns at once if
// that parent is already gone (`runner_pid`, when not 0, must be its
// parent). With a namespace, the caller stays outside as a waiter that
// forwards the exit status of the worker, which continues in the child: only
// there does this function return. Returns false when the run is gone.
bool contain_worker(long runner_pid, Containment* how = nullptr);

// The environment variable that hands a Python worker the pid of its guard
// under the subreaper containment.
inline constexpr const char* kWorkerGuardVariable = "DLPACK_USM_WORKER_GUARD";

// Under the subreaper containment: whether the library killed the worker's
// guard (its parent) and the worker only lives on until the parent-death
// signal arrives. A worker asks before it reports a case, and dies instead
// (die_for_killed_guard), so that the runner charges the case that killed
// it, never a later one. Always false in a PID namespace, whose init the
// kernel keeps from a signal sent inside.
bool worker_guard_killed();

// Says on stderr (kept in the case's message) that the library killed the
// worker's guard, and dies of SIGKILL as the guard did.
[[noreturn]] void die_for_killed_guard();

// At a worker's normal exit: kills its children the library under test left
// running (orphans of theirs go to the guard or init, which kill them).
void reap_worker_leftovers();

}  // namespace dlpack_usm::suite
