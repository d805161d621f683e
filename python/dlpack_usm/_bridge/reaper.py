"""No process that code under test starts outlives the run. The zygote of a
contained run is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever its
runners leave behind, children that linger and daemons that call setsid()
and fork twice alike, becomes its child when orphaned, and is killed and
reaped after each runner. The zygote and its runners die with their parent
(PR_SET_PDEATHSIG), also when the parent is killed with SIGKILL."""

import ctypes
import os
import signal
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SWEEP_S = 5


def _prctl(option, value):
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(option, ctypes.c_ulong(value), ctypes.c_ulong(0), ctypes.c_ulong(0),
                      ctypes.c_ulong(0)) == 0


def become_subreaper():
    """Orphans of this process's descendants become its children."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(parent):
    """SIGKILL when the parent (pid `parent`) ends; at once if it already did."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def children():
    """The pids whose parent is this process, zombies included: only this
    process reaps them, so none of these pids can be reused meanwhile."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if fields[1] == me:
            found.append(int(entry))
    return found


def _reap_all():
    """Reaps every child that ended; False once there is no child at all."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def sweep(deadline_s=SWEEP_S):
    """Kills (SIGKILL) and reaps every child of this process, and the
    children they leave behind, until none is left or `deadline_s` passed."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        for pid in children():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if not _reap_all():
            return
        time.sleep(0.001)
