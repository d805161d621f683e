"""The one way the package runs code in a child process and waits for it: a
fork that answers on a channel (channel: "PID KIND JSON" lines), whose lines
are read against a deadline, and whose end is reaped, killed first where it
hung. The consumer probe of a producer check runs one, so that a consumer
that crashes or hangs on the producer's capsule ends only that child (and
in_child runs a function whose runtime must not start in this process).
TIMEOUT_S is how long any of them waits for code under test by default."""

import os
import select
import signal
import time

from . import channel
from .errors import BridgeError

# A call into code under test that takes longer is a hang.
TIMEOUT_S = 60


def describe_status(status):
    """None for a clean exit, else how a process ended ("SIGSEGV", "exit
    status 3")."""
    if os.WIFSIGNALED(status):
        return signal.Signals(os.WTERMSIG(status)).name
    code = os.WEXITSTATUS(status)
    return None if code == 0 else f"exit status {code}"


def readable(fds, deadline):
    """Those of `fds` with something to read before `deadline` (a
    time.monotonic() value); none once it passed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return []
    return select.select(fds, [], [], remaining)[0]


class Lines:
    """A line reader over a pipe's read end."""

    def __init__(self, fd):
        self.fd = fd
        self.buffer = b""
        self.closed = False

    def pop(self):
        """The next whole line (bytes), or None."""
        if b"\n" not in self.buffer:
            return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def fill(self):
        """Reads what is there; False at the end of the pipe."""
        chunk = os.read(self.fd, 1 << 16)
        self.closed = not chunk
        self.buffer += chunk
        return bool(chunk)


class Child:
    """A forked child running `work(send)` (channel.run_child, which says
    what `keep_stdout` keeps), read line by line."""

    def __init__(self, work, keep_stdout=False):
        read_fd, write_fd = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(read_fd)
            channel.run_child(work, write_fd, keep_stdout)
        os.close(write_fd)
        self.lines = Lines(read_fd)

    def next_line(self, timeout_s):
        """(kind, payload) of the child's next line, None at the end, or
        "timeout". Lines another process sent (a fork of the code under
        test) are dropped."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.lines.pop()
            if line is None:
                if not readable([self.lines.fd], deadline):
                    return "timeout"
                if not self.lines.fill():
                    return None
                continue
            parsed = channel.parse(line)
            if parsed is not None and parsed[0] == self.pid:
                return parsed[1:]

    def end(self, kill=False):
        """How the child ended (describe_status), once reaped; SIGKILL first
        where `kill`."""
        if kill:
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.lines.fd)
        _, status = os.waitpid(self.pid, 0)
        return describe_status(status)


def answer(work, timeout_s=TIMEOUT_S, keep_stdout=False):
    """(the first line `work(send)` sent from a child, or None or "timeout";
    how the child ended). A child that did not answer within `timeout_s` is
    killed; none outlives this call, also where a stop signal ends it."""
    child = Child(work, keep_stdout)
    try:
        line = child.next_line(timeout_s)
    except BaseException:  # noqa: B036 - a stop signal too: the child must not outlive it
        child.end(kill=True)
        raise
    return line, child.end(kill=line == "timeout")


def in_child(function, timeout_s=TIMEOUT_S):
    """function()'s JSON answer, computed in a child (the runtime starts
    there, never in this process)."""
    line, ended = answer(lambda send: send("R", function()), timeout_s)
    if line in (None, "timeout"):
        raise BridgeError(f"the bridge's child process ended without an answer ({ended or line})",
                          "run `dlpack-usm list-devices` to see whether the runtime starts",
                          exit_code=3)
    if line[0] == "X":
        raise channel.error_of(line[1])
    return line[1]
