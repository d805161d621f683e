"""A child process that prepares the consumer once (imports its library:
seconds for torch) and then forks the case runners from itself, one after
another, so that a consumer that crashes costs a fork, not a fresh import.
The command's own process still never imports the consumer's library.

The zygote leads a process group of its own (a Ctrl-C at the terminal
reaches the command, which ends the run, not the code under test), reads
no terminal (stdin is /dev/null), and is the subreaper of its runners
(reaper): once a runner ended, whatever it left behind is killed before
the next one starts.

Three pipes: the parent's commands to the zygote ("run JSON", JSON saying
where the runner starts), the zygote's reports ("P PID" when a runner
starts, "E PID HOW" when it ended, "X JSON" when preparing failed), and the
runners' lines (channel: "PID KIND JSON"), which the parent reads
directly, taking only those of the runner it started."""

import faulthandler
import json
import os
import select
import signal
import time

from . import channel, reaper
from .child import Lines, describe_status, readable
from .errors import BridgeError, describe_exception
from .interrupts import STOP_SIGNALS

# How long a zygote may take to end once told to (it kills what is left first).
CLOSE_S = reaper.SWEEP_S + 1


def _report(fd, line):
    os.write(fd, (line + "\n").encode())


def _prepare_or_exit(prepare, control):
    try:
        prepare()
    except BaseException as error:  # noqa: B036 - reported to the parent, whatever it is
        payload = {"message": getattr(error, "message", None) or
                   f"preparing the consumer raised {describe_exception(error)}",
                   "hint": getattr(error, "hint", ""),
                   "exit_code": getattr(error, "exit_code", 2)}
        _report(control, "X " + json.dumps(payload))
        os._exit(3)


def _detach(parent):
    """The zygote's own process group, no terminal input, the subreaper of
    what its runners leave, and dead with its parent."""
    os.setpgid(0, 0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    reaper.become_subreaper()
    reaper.die_with_parent(parent)


def _zygote_main(prepare, describe, run_runner, data, control, commands, parent):
    """In the zygote: prepare, say what it prepared (describe()), then a
    runner per command, reaped in turn, and what it left killed."""
    faulthandler.disable()
    os.dup2(2, 1)  # a consumer's prints must not mix with the command's output
    _detach(parent)
    try:
        _prepare_or_exit(prepare, control)
        _report(control, "Z " + json.dumps(describe()))
        lines = Lines(commands)
        while True:
            line = lines.pop()
            if line is None:
                if not lines.fill():
                    break
                continue
            start = json.loads(line.split(b" ", 1)[1])
            zygote = os.getpid()
            pid = os.fork()
            if pid == 0:
                os.close(commands)
                os.close(control)
                reaper.die_with_parent(zygote)
                run_runner(start, data)  # never returns
            _report(control, f"P {pid}")
            _, status = os.waitpid(pid, 0)
            reaper.sweep()
            _report(control, f"E {pid} {describe_status(status) or 'ok'}")
    finally:
        reaper.sweep()
        os._exit(0)


class Zygote:
    """The parent's side: start runners, read their lines and their ends."""

    def __init__(self, prepare, describe, run_runner, timeout_s):
        """`describe()` runs in the zygote once `prepare()` did; its JSON
        answer is `description` here (the versions of what was imported)."""
        data_read, data_write = os.pipe()
        control_read, control_write = os.pipe()
        commands_read, commands_write = os.pipe()
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:
            for fd in (data_read, control_read, commands_write):
                os.close(fd)
            _zygote_main(prepare, describe, run_runner, data_write, control_write,
                         commands_read, parent)
        for fd in (data_write, control_write, commands_read):
            os.close(fd)
        try:
            os.setpgid(self.pid, self.pid)  # as the zygote does, whoever runs first
        except OSError:
            pass  # it did, and may have exec'd or ended already
        self.data, self.control = Lines(data_read), Lines(control_read)
        self.commands = commands_write
        self.runner = None
        try:
            self.description = json.loads(self._wait_control("Z", timeout_s))
        except BaseException:  # noqa: B036 - a signal too: the zygote must not outlive it
            self.close(kill=True)
            raise

    def _wait_control(self, kind, timeout_s):
        """The zygote's next report, which must be of `kind`."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.control.pop()
            if line is not None:
                word, _, rest = line.decode().partition(" ")
                if word == "X":
                    self.close()
                    raise channel.error_of(json.loads(rest))
                if word == kind:
                    return rest
                continue
            if not readable([self.control.fd], deadline) or not self.control.fill():
                self.close(kill=True)
                raise BridgeError("the consumer's zygote process ended or hung before it was "
                                  "ready", "run the consumer expression alone in python3 to see "
                                  "what it does", exit_code=4)

    def start(self, where, timeout_s):
        """Forks a runner; `where` (JSON) says where it starts."""
        _report(self.commands, "run " + json.dumps(where))
        self.runner = int(self._wait_control("P", timeout_s))

    def next_event(self, timeout_s):
        """(kind, payload) of the runner's next line, ("ended", how) once it
        ended and every line it wrote was read, ("garbled", text) for a line
        that is no channel line, or "timeout". Lines another process sent
        (a fork of the code under test) are dropped."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.data.pop()
            if line is not None:
                parsed = channel.parse(line)
                if parsed is None:
                    return "garbled", line[:200].decode("utf-8", "replace")
                if parsed[0] == self.runner:
                    return parsed[1:]
                continue
            report = self.control.pop()
            if report is not None and report.startswith(b"E "):
                # What the runner wrote before it ended is in its pipe now.
                while select.select([self.data.fd], [], [], 0)[0] and self.data.fill():
                    pass
                if b"\n" in self.data.buffer:
                    self.control.buffer = report + b"\n" + self.control.buffer
                    continue
                self.data.buffer = b""  # a line the runner was killed writing
                self.runner = None
                how = report.decode().split(" ", 2)[2]
                return "ended", None if how == "ok" else how
            if time.monotonic() >= deadline:
                return "timeout"
            for fd in readable([self.data.fd, self.control.fd], deadline):
                reader = self.data if fd == self.data.fd else self.control
                if not reader.fill() and reader is self.control:
                    return "ended", "the zygote process died"

    def kill_runner(self):
        if self.runner is not None:
            try:
                os.kill(self.runner, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def end_runner(self):
        """Kills the runner and says how it ended once the zygote reaped it
        (None where that takes longer than CLOSE_S); its lines are dropped."""
        self.kill_runner()
        while True:
            event = self.next_event(CLOSE_S)
            if event == "timeout" or event[0] == "ended":
                return None if event == "timeout" else event[1]

    def close(self, kill=False):
        """Ends the zygote, which kills what its runners left and exits once
        its commands end; one that has not within CLOSE_S is killed with its
        process group. A stop signal waits until this is done."""
        if self.commands is None:
            return
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            if kill:
                self.kill_runner()
            os.close(self.commands)
            self.commands = None
            if not _ended_within(self.pid, CLOSE_S):
                _kill_group(self.pid)
                os.waitpid(self.pid, 0)
            for fd in (self.data.fd, self.control.fd):
                os.close(fd)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _ended_within(pid, seconds):
    """Whether child `pid` ended (and was reaped) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
        time.sleep(0.005)
    return False


def _kill_group(pid):
    """SIGKILL to process group `pid` and to `pid` itself."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
