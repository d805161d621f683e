"""python -m dlpack_usm._worker: a Python worker of `dlpack-usm check` (see
the package's docstring); not for people."""

import faulthandler
import json
import os
import sys

from .._bridge.errors import BridgeError, describe_exception
from ..producer import _foreign
from ._cases import run_case
from ._channel import ResultChannel
from ._guard import die_for_killed_guard, guard_killed
from ._target import Target

READY = {"worker": "ready"}


def _error_line(error):
    """The Error line of worker_protocol.hpp: the runner repeats it."""
    return {"error": {"exit_code": error.exit_code, "message": error.message, "hint": error.hint}}


def _announcer(channel):
    """Sends each call into the library as it starts and once it returned
    (worker_calls.hpp), the innermost call still running named; a call made
    while a case's setup is made (inside a "making ..." call) is setup."""
    calls = []

    def hear(kind, payload):
        if kind == "C":
            calls.append(payload["call"])
        elif calls:
            calls.pop()
        call = calls[-1] if calls else ""
        setup = any(outer.startswith(_foreign.MAKING) for outer in calls)
        channel.send({"calling": call, "setup": setup})
    return hear


def _read_batch():
    """The batch on stdin, which is then /dev/null: the library reads no
    terminal and no case spec."""
    batch = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return batch


def main():
    # A crash leaves its Python traceback on stderr, which the runner keeps
    # in the case's message.
    faulthandler.enable()
    channel = ResultChannel()
    batch = _read_batch()
    target = Target(batch["target"])
    # A batch whose every case calls nothing into the library (each one not
    # supported, with its reason: a pair of libraries whose imports crash
    # together) does not import it.
    calls_nothing = batch["task"] != "describe" and all(
        case["kind"] == "not_supported" for case in batch["cases"])
    try:
        if not calls_nothing:
            target.prepare()
        if batch["task"] == "describe":
            channel.send({"described": [target.describe()]})
            return 0
    except BridgeError as error:
        channel.send(_error_line(error))
        return error.exit_code
    channel.send(READY)
    _foreign.listen(_announcer(channel))
    for case in batch["cases"]:
        result = run_case(target, case)
        if guard_killed():
            die_for_killed_guard()
        channel.send(result)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BridgeError as error:
        print(f"dlpack_usm._worker: error: {error.message}", file=sys.stderr)
        sys.exit(error.exit_code)
    except Exception as error:  # noqa: BLE001 - the tool's own bug, said before the worker ends
        print(f"dlpack_usm._worker: internal error: {describe_exception(error)}", file=sys.stderr)
        sys.exit(4)
