"""Runs the cases of a consumer check contained, as the command line's
workers do: the cases go in order through a forked child process that
reports each start and each result on a pipe; a child that dies (an abort,
a segfault) or stops answering (a hang) is charged to the case it was
running, and a new child goes on with the next case. The children fork from
a zygote that prepared the consumer once (_bridge.zygote), which kills what a
runner leaves behind. The parent never calls the consumer nor the runtime,
so nothing it keeps can be damaged. A stop signal (within the command's
interrupts.stopping_on_signals) ends the run: the case it interrupted and
those after it are not run. So does --max-failures once that many cases
failed, the reason said in each case not run."""

import time

from .._bridge import channel
from .._bridge.child import TIMEOUT_S
from .._bridge.errors import BridgeError
from .._bridge.interrupts import Interrupted
from .._bridge.zygote import Zygote
from . import _case, _report

# The longest the parent waits for its runner before it calls tick() again.
TICK_S = 0.2


def run_contained(consumer, specs, timeout_s=TIMEOUT_S, progress=None, required=(),
                  describe=lambda: {}, on_ready=None, limits=None, tick=None):
    """The result of every case of `specs`, in order, each contained;
    `required` names the features whose declines fail (--require). The
    runners fork from a zygote that prepared the consumer once
    (consumer.prepare(), where it has one: importing torch takes seconds);
    `on_ready(describe())` gets what the zygote described after that.
    `limits` (Limits) may stop the run early; `tick()` is called at least
    every TICK_S while the run waits, a hanging case included."""
    def run_runner(first, data):
        def work(send):
            for index in range(first, len(specs)):
                send("S", index)
                send("R", _case.run_case(consumer, specs[index], required,
                                         lambda cell: send("P", cell)))
        channel.run_child(work, data)

    results, zygote = [], None
    try:
        zygote = Zygote(getattr(consumer, "prepare", lambda: None), describe, run_runner,
                        timeout_s)
        if on_ready:
            on_ready(zygote.description)
        while len(results) < len(specs):
            zygote.start(len(results), timeout_s)
            reason = _run_batch(zygote, specs, results, timeout_s, progress, limits, tick)
            if reason:
                results += [_not_run(spec, reason=reason) for spec in specs[len(results):]]
    except Interrupted as stop:
        results += [_not_run(spec, stop.name) for spec in specs[len(results):]]
    finally:
        if zygote is not None:
            zygote.close(kill=True)
    return results


class Limits:
    """--max-failures for a consumer check: after `max_failures` failing
    cases (status fail, and warn with --strict; 0: never) the run stops."""

    def __init__(self, max_failures=0, strict=False):
        self.max_failures = max_failures
        self.failing = [status for status in _report.failing_statuses(strict)
                        if status != "not_run"]
        self.failures = 0

    def reached(self, result):
        """The reason the run stops after `result`, or None."""
        if result["status"] in self.failing:
            self.failures += 1
        if self.max_failures and self.failures >= self.max_failures:
            plural = "" if self.failures == 1 else "s"
            return (f"the run stopped after {self.failures} failure{plural} "
                    f"(--max-failures {self.max_failures})")
        return None


def _next_event(zygote, timeout_s, tick):
    """zygote.next_event(timeout_s), with tick() called before it and at
    least every TICK_S while it waits."""
    deadline = time.monotonic() + timeout_s
    while True:
        if tick:
            tick()
        left = deadline - time.monotonic()
        event = zygote.next_event(max(0.0, min(left, TICK_S)) if tick else timeout_s)
        if event != "timeout" or time.monotonic() >= deadline:
            return event


def _finished(results, record, progress, limits):
    """Records a case's result; the reason the run stops, if it does."""
    results.append(record)
    if progress:
        progress(record)
    return limits.reached(record) if limits else None


def _run_batch(zygote, specs, results, timeout_s, progress, limits=None, tick=None):
    """Reads one runner's lines until it ends (all done, or a case crashed
    or hung: that case is charged, and the caller starts the next runner).
    Returns the reason the run stops where `limits` stop it (the runner is
    ended then), else None."""
    running, started, probing = None, time.monotonic(), None
    while True:
        event = _next_event(zygote, timeout_s, tick)
        if event == "timeout":
            event = ("ended", zygote.end_runner()) + ("hung",)
        elif event[0] == "garbled":
            zygote.end_runner()
            event = ("ended", f"its result channel carried a line the runner did not write: "
                              f"{event[1]!r}")
        if event[0] == "ended":
            if running is None:
                if len(results) == len(specs):
                    return
                raise BridgeError(f"the case runner ended before its case "
                                  f"({event[1] or 'no answer'})", exit_code=4)
            return _finished(results, _contained_failure(specs[running], len(event) > 2,
                                                         event[1], timeout_s, started, probing),
                             progress, limits)
        kind, payload = event
        if kind == "X":
            raise channel.error_of(payload)
        if kind == "S":
            running, started, probing = payload, time.monotonic(), None
        elif kind == "P":
            probing = payload
        elif kind == "R":
            running = None
            reason = _finished(results, payload, progress, limits)
            if reason:
                if len(results) < len(specs):
                    zygote.end_runner()
                return reason


def _not_run(spec, signal_name=None, reason=None):
    """The record of a case a stop signal left unfinished or unstarted, or
    one a limit turned away (`reason`)."""
    record = dict(spec)
    cell = spec["cell"]
    record.update({"observation": {"cell": cell["name"], "valid": cell["valid"],
                                   "action": "not_run"},
                   "outcome": None, "status": "not_run",
                   "message": f"not run: {reason or f'the run was interrupted by {signal_name}'}",
                   "findings": [], "decline_reason": "", "exception_type": ""})
    if signal_name:
        record["interrupted_by"] = signal_name
    else:
        record["stop_reason"] = reason
    return record


def _contained_failure(spec, hung, ended, timeout_s, started, probing=None):
    """The judged record of a case whose child died or hung; `probing` names
    the cell offered after a decline (a compact twin, the reference cell)
    when that was the running call."""
    record = dict(spec)
    cell = spec["cell"]
    during = (f" while offered {probing}, after it declined {cell['name']}"
              if probing else "")
    if hung:
        reason = (f"the consumer did not return within {timeout_s} s{during}; its child process "
                  "was killed and the next case runs in a new one")
    else:
        reason = (f"the consumer crashed ({ended}){during}; only its child process died, and "
                  "the next case runs in a new one")
    record["observation"] = {"cell": cell["name"], "valid": cell["valid"],
                             "broken_rule": cell.get("broken_rule", ""),
                             "null_deleter": cell.get("null_deleter", False),
                             "action": "hung" if hung else "crashed", "reason": reason}
    _case.judge(record)
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record
