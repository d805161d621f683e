"""A child process that prepares the consumer once (imports its library:
seconds for torch) and then forks the case runners from itself, one after
another, so that a consumer that crashes costs a fork, not a fresh import.
The command's own process still never imports the consumer's library.

Three pipes: the parent's commands to the zygote ("run FIRST"), the
zygote's reports ("P PID" when a runner starts, "E PID HOW" when it ended,
"X JSON" when preparing failed), and the runners' lines (_consumer_runner's
"S", "P", "R", "X"), which the parent reads directly."""

import faulthandler
import json
import os
import select
import signal
import time

from ._errors import BridgeError, describe_exception


class _Lines:
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


def describe_status(status):
    """None for a clean exit, else how a process ended."""
    if os.WIFSIGNALED(status):
        return signal.Signals(os.WTERMSIG(status)).name
    code = os.WEXITSTATUS(status)
    return None if code == 0 else f"exit status {code}"


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


def _zygote_main(prepare, describe, run_runner, data, control, commands):
    """In the zygote: prepare, say what it prepared (describe()), then a
    runner per command, reaped in turn."""
    faulthandler.disable()
    os.dup2(2, 1)  # a consumer's prints must not mix with the command's output
    _prepare_or_exit(prepare, control)
    _report(control, "Z " + json.dumps(describe()))
    lines = _Lines(commands)
    while True:
        line = lines.pop()
        if line is None:
            if not lines.fill():
                os._exit(0)
            continue
        first = int(line.split()[1])
        pid = os.fork()
        if pid == 0:
            os.close(commands)
            os.close(control)
            run_runner(first, data)  # never returns
        _report(control, f"P {pid}")
        _, status = os.waitpid(pid, 0)
        _report(control, f"E {pid} {describe_status(status) or 'ok'}")


class Zygote:
    """The parent's side: start runners, read their lines and their ends."""

    def __init__(self, prepare, describe, run_runner, timeout_s):
        """`describe()` runs in the zygote once `prepare()` did; its JSON
        answer is `description` here (the versions of what was imported)."""
        data_read, data_write = os.pipe()
        control_read, control_write = os.pipe()
        commands_read, commands_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            for fd in (data_read, control_read, commands_write):
                os.close(fd)
            _zygote_main(prepare, describe, run_runner, data_write, control_write,
                         commands_read)
        for fd in (data_write, control_write, commands_read):
            os.close(fd)
        self.data, self.control = _Lines(data_read), _Lines(control_read)
        self.commands = commands_write
        self.runner = None
        self.description = json.loads(self._wait_control("Z", timeout_s))

    def _wait_control(self, kind, timeout_s):
        """The zygote's next report, which must be of `kind`."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.control.pop()
            if line is not None:
                word, _, rest = line.decode().partition(" ")
                if word == "X":
                    self.close()
                    payload = json.loads(rest)
                    raise BridgeError(payload["message"], payload.get("hint", ""),
                                      exit_code=payload.get("exit_code", 2))
                if word == kind:
                    return rest
                continue
            remaining = deadline - time.monotonic()
            ready = remaining > 0 and select.select([self.control.fd], [], [], remaining)[0]
            if not ready or not self.control.fill():
                self.close(kill=True)
                raise BridgeError("the consumer's zygote process ended or hung before it was "
                                  "ready", "run the consumer expression alone in python3 to see "
                                  "what it does", exit_code=4)

    def start(self, first, timeout_s):
        """Forks a runner for the cases from `first` on."""
        _report(self.commands, f"run {first}")
        self.runner = int(self._wait_control("P", timeout_s))

    def next_event(self, timeout_s):
        """(kind, payload) of the runner's next line, ("ended", how) once it
        ended and every line it wrote was read, or "timeout"."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.data.pop()
            if line is not None:
                kind, _, payload = line.decode().partition(" ")
                return kind, json.loads(payload)
            report = self.control.pop()
            if report is not None and report.startswith(b"E "):
                # What the runner wrote before it ended is in its pipe now.
                while select.select([self.data.fd], [], [], 0)[0] and self.data.fill():
                    pass
                if b"\n" in self.data.buffer:
                    self.control.buffer = report + b"\n" + self.control.buffer
                    continue
                self.runner = None
                how = report.decode().split(" ", 2)[2]
                return "ended", None if how == "ok" else how
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            ready, _, _ = select.select([self.data.fd, self.control.fd], [], [], remaining)
            for fd in ready:
                reader = self.data if fd == self.data.fd else self.control
                if not reader.fill() and reader is self.control:
                    return "ended", "the zygote process died"

    def kill_runner(self):
        if self.runner is not None:
            try:
                os.kill(self.runner, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self, kill=False):
        """Ends the zygote (it exits when its commands end)."""
        if kill:
            self.kill_runner()
            os.kill(self.pid, signal.SIGKILL)
        for fd in (self.commands, self.data.fd, self.control.fd):
            try:
                os.close(fd)
            except OSError:
                pass
        os.waitpid(self.pid, 0)
