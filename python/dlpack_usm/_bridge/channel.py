"""The lines a contained child sends its parent ("PID KIND JSON"), and the
child's side of it. Code under test runs in that child and may fork: a copy
that returns into the child's code (a consumer that forks and carries on)
would send the lines of the cases again. So every line names the process
that sent it, the parent takes only the lines of the child it started, and
a copy is ended (os._exit(0)) when it tries to send. The channel's
descriptor is moved out of the way of the code under test (a high number,
closed on exec)."""

import faulthandler
import fcntl
import json
import os

from .errors import BridgeError, describe_exception

# Descriptors from here on are the channel's: above what a library opens by
# habit (3, 4, ...), so that its chatter does not land in the channel.
HIGH_FD = 200


class Channel:
    """The child's end: send(kind, payload) writes one line."""

    def __init__(self, write_fd):
        self.fd = fcntl.fcntl(write_fd, fcntl.F_DUPFD_CLOEXEC, HIGH_FD)
        os.close(write_fd)
        self.owner = os.getpid()

    def send(self, kind, payload):
        if os.getpid() != self.owner:
            os._exit(0)  # a fork of the code under test came back into ours
        data = f"{self.owner} {kind} {json.dumps(payload)}\n".encode()
        while data:
            data = data[os.write(self.fd, data):]


def parse(line):
    """(pid, kind, payload) of a line, or None where it is no channel line."""
    try:
        pid, kind, payload = line.decode().split(" ", 2)
        return int(pid), kind, json.loads(payload)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None


def error_of(payload):
    """The BridgeError a child reported on an "X" line (run_child sends
    them), to be raised in the parent."""
    return BridgeError(payload["message"], payload.get("hint", ""),
                       exit_code=payload.get("exit_code", 4))


def run_child(work, write_fd, keep_stdout=False):
    """In a child: runs `work(send)` and leaves without cleaning up. A
    BridgeError, or any other exception (the tool's own bug), is sent as an
    "X" line for the parent to report. Its stdout is stderr, unless
    `keep_stdout`: the prints of code under test must not mix with the
    command's output."""
    faulthandler.disable()
    if not keep_stdout:
        os.dup2(2, 1)
    channel = Channel(write_fd)
    status = 0
    try:
        work(channel.send)
    except BridgeError as error:
        channel.send("X", {"message": error.message, "hint": error.hint,
                           "exit_code": error.exit_code})
        status = 3
    except BaseException as error:  # noqa: B036 - the tool's own bug, reported by the parent
        channel.send("X", {"message": "internal error in the case runner: "
                                      f"{describe_exception(error)}",
                           "hint": "this is a bug of dlpack_usm; please report it",
                           "exit_code": 4})
        status = 4
    finally:
        os._exit(status)
