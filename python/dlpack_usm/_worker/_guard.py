"""The worker's guard under the subreaper containment
(src/suite/runner/worker_containment.hpp): a library that kills its parent
kills the guard, and the worker lives on only until the parent-death signal
arrives, which may be after its case ended. The worker asks before it
reports each case and dies instead, so that the runner charges the case
that killed the guard, never a later one. In a PID namespace there is no
guard to ask: the kernel keeps the namespace's init from a signal sent
inside."""

import os
import signal
import sys

_GUARD = int(os.environ.get("DLPACK_USM_WORKER_GUARD", "0") or 0)
_KILL_BIT = 1 << (signal.SIGKILL - 1)


def _status_says_killed(pid):
    """Whether /proc/PID/status shows it dead, dying or with a SIGKILL
    pending: kill() returns once the signal is queued, before the process
    ends."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            lines = status.read().splitlines()
    except OSError:
        return True
    for line in lines:
        name, _, value = line.partition(":")
        value = value.strip()
        if name == "State" and value[:1] in ("Z", "X"):
            return True
        if name in ("SigPnd", "ShdPnd") and int(value or "0", 16) & _KILL_BIT:
            return True
    return False


def guard_killed():
    """True where the library killed the worker's guard."""
    return _GUARD != 0 and (os.getppid() != _GUARD or _status_says_killed(_GUARD))


def die_for_killed_guard():
    """Says so on stderr (kept in the case's message) and dies of SIGKILL,
    as the guard did."""
    os.write(sys.stderr.fileno(), b"dlpack-usm: the library killed the worker's guard, its "
                                  b"parent process, during this case\n")
    os.kill(os.getpid(), signal.SIGKILL)
