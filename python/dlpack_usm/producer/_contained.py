"""`python3 -m dlpack_usm check EXPR` runs the producer's code contained,
as the command line runs a library under test. A runner, forked from a
zygote (_bridge.zygote: its own process group, the subreaper of what a runner
leaves behind, dead with the command), evaluates EXPR, inspects the capsule
and runs the steps of the check (_steps) from where the last runner
stopped, announcing every call into the producer (_foreign). A call that
ends the process (an exit, a signal) or does not return within the timeout
is a finding of that call (DLP-PLUGIN-CRASH, DLP-PLUGIN-HANG), and the next
step goes on in a new runner; an exception of the producer's code that
escapes a step is a finding of the step's rule. The command's own process
never runs the producer's code, so it always ends with its report."""

import os
import traceback
from dataclasses import dataclass, field

from .._bridge.channel import error_of, run_child
from .._bridge.child import TIMEOUT_S
from .._bridge.errors import BridgeError, NotApplicable, describe_exception
from .._bridge.interrupts import Interrupted
from .._bridge.zygote import Zygote
from .._expression import evaluate, interpreter
from ..rules import Finding, finding
from . import _foreign, _steps, _stream_race

EVALUATING = "evaluating EXPR"
# The whole package (dlpack_usm/), whose frames are no producer's code.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass
class Report:
    """What a contained check found: the capsule as inspected (capsule_name,
    capsule, reader_notes; None where there is no tensor), the findings,
    the notes, and the stop signal that interrupted it."""
    base: dict = None
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    interrupted: str = None


def check_contained(expr, max_version, consumer, timeout_s=TIMEOUT_S,
                    stream_attempts=_stream_race.DEFAULT_ATTEMPTS):
    """The Report of check_report on the object EXPR gives, whose code runs
    in runner processes. Raises BridgeError where EXPR does not evaluate
    (also where it ends the process or hangs: exit 2), NotApplicable where
    the producer declines the export."""
    def run_runner(start, data):
        run_child(lambda send: _run_steps(expr, tuple(max_version), consumer, stream_attempts,
                                          start, send), data)

    follower = _Follower(timeout_s)
    zygote = None
    try:
        zygote = Zygote(lambda: None, dict, run_runner, timeout_s)
        while not follower.done:
            zygote.start({"step": follower.next_step, "state": follower.state}, timeout_s)
            follower.follow(zygote)
    except Interrupted as stop:
        follower.interrupt(stop.name)
    finally:
        if zygote is not None:
            zygote.close(kill=True)
    return follower.report


# In the runner.

def _json(findings):
    return [item.to_json() for item in findings]


def _run_steps(expr, max_version, consumer, stream_attempts, start, send):
    """Evaluates EXPR, inspects its capsule ("B"), and runs the steps from
    start["step"] on ("S" before each, "T" with its findings after it),
    every call into the producer announced ("C", "D"); "F" at the end."""
    _foreign.listen(send)
    with _foreign.calling(EVALUATING):
        obj = evaluate(expr)
    try:
        base, found = _steps.inspect_base(obj, max_version, expr)
    except NotApplicable as reason:
        send("N", {"message": reason.message})
        send("F", {})
        return
    send("B", {"base": None if base is None else {
        "capsule_name": base.capsule_name, "capsule": base.capsule,
        "reader_notes": base.reader_notes, "notes": base.notes}, "findings": _json(found)})
    if base is not None:
        state = dict(start["state"])
        state["flagged"] = state["flagged"] or any(item.severity == "error" for item in found)
        check = _steps.Check(obj, base, max_version, expr, consumer, stream_attempts,
                             lambda: evaluate(expr), **state)
        for index in range(start["step"], len(_steps.STEPS)):
            send("S", {"step": index})
            noted = len(base.notes)
            found = _step_findings(check, index)
            send("T", {"step": index, "findings": _json(found), "notes": base.notes[noted:],
                       "state": {"speaks_versioned": check.speaks_versioned,
                                 "flagged": check.flagged}})
    send("F", {})


def _step_findings(check, index):
    """The findings of step `index`. An exception of the producer's code
    that escaped it is a finding of the step's rule (a note for the consumer
    probe); one of the tool's own code is a bug of the tool, raised on."""
    try:
        return _steps.run_step(check, index)
    except BaseException as error:  # noqa: B036 - SystemExit from the producer's code too
        where = _foreign_frame(error)
        if where is None:
            raise
        asked, rule, _ = _steps.STEPS[index]
        message = (f"the producer's code raised {describe_exception(error)} ({where}) while "
                   f"the checker asked {asked}; the rest of this check was not made")
        if rule is None:
            check.base.notes.append(f"not applicable: {message}")
            return []
        return [finding(rule, asked, message)]


def _foreign_frame(error):
    """"FILE:LINE in FUNCTION" of the innermost frame of `error`'s traceback
    where that is not the package's code, else None."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames or os.path.abspath(frames[-1].filename).startswith(PACKAGE + os.sep):
        return None
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}"


# In the command's process.

def _what_ended(how):
    """How a runner that ended early ended: its exit status or signal."""
    if how is None or how.startswith("exit status"):
        return f"ended the process ({how or 'exit status 0'})"
    if how.startswith("SIG"):
        return f"died of {how}"
    return f"ended the process ({how})"


class _Follower:
    """The parent's side: follows each runner's lines, gathers the report,
    and charges a runner that ended early to the call it was in."""

    def __init__(self, timeout_s):
        self.timeout_s = timeout_s
        self.report = Report()
        self.next_step = 0
        self.state = {"speaks_versioned": False, "flagged": False}
        self.inspected = False
        self.done = False
        self.call = self.returned = self.step = None

    def follow(self, zygote):
        """Reads one runner's lines until it ended, finished or not."""
        self.call = self.returned = self.step = None
        while True:
            event = zygote.next_event(self.timeout_s)
            if event == "timeout":
                zygote.end_runner()
                return self._charge(f"did not return within {self.timeout_s:g} s", hung=True)
            kind, payload = event
            if kind == "ended":
                return self._charge(_what_ended(payload))
            if kind == "garbled":
                zygote.end_runner()
                return self._charge(f"wrote a line that is not the checker's on its channel "
                                    f"({payload!r})")
            if kind == "F":
                zygote.end_runner()
                self.done = True
                return
            self._take(kind, payload)

    def _take(self, kind, payload):
        """One line of the runner: a call begun or returned, the inspection,
        a step begun or done, or the tool's own error."""
        if kind == "C":
            self.call = payload
        elif kind == "D":
            self.call, self.returned = None, payload["call"]
        elif kind == "S":
            self.step = payload["step"]
        elif kind == "T":
            self.report.findings += [Finding(**entry) for entry in payload["findings"]]
            self.report.notes += payload["notes"]
            self.state, self.next_step, self.step = payload["state"], payload["step"] + 1, None
        elif kind == "B" and not self.inspected:
            self.inspected = True
            self.report.base = payload["base"]
            self.report.findings += [Finding(**entry) for entry in payload["findings"]]
            self.report.notes += (payload["base"] or {}).get("notes", [])
        elif kind == "N" and not self.inspected:
            raise NotApplicable(payload["message"])
        elif kind == "X":
            raise error_of(payload)

    def _charge(self, what, hung=False):
        """The finding (or, for the consumer probe, the note) of a runner
        that ended or hung; the next runner starts at the next step."""
        if self.call is not None and self.call["call"] == EVALUATING:
            raise BridgeError(f"{EVALUATING} " +
                              (f"did not finish within {self.timeout_s:g} s" if hung else what),
                              f"check the expression in {interpreter()} first")
        self.report.findings += self._blame(what, hung)
        self.state = dict(self.state, flagged=True)
        if not self.inspected:
            self.done = True  # no capsule to check
            return
        self.next_step = (self.step if self.step is not None else self.next_step) + 1
        self.done = self.next_step >= len(_steps.STEPS)

    def _blame(self, what, hung):
        rule = "DLP-PLUGIN-HANG" if hung else "DLP-PLUGIN-CRASH"
        call = self.call
        if call is not None and call["consumer"]:
            self.report.notes.append(f"not applicable: {call['call']} {what} on this tensor; "
                                     "it ran in a child process, so only that ended")
            return []
        if call is not None:
            return [finding(rule, call["call"].split("(")[0],
                            f"{call['call']} {what}; the checks after it ran in a new process")]
        asked = _steps.STEPS[self.step][0] if self.step is not None else \
            "__dlpack__ for the capsule to check"
        return [finding(rule, "finalizer",
                        f"the producer's code {what} after {self.returned or 'EXPR'} returned: "
                        "a finalizer (__del__, a capsule's destructor) or another hook of the "
                        f"producer, run while the checker asked {asked}")]

    def interrupt(self, signal_name):
        """A stop signal ended the check: what was found stays, with a note."""
        self.report.interrupted = signal_name
        if not self.done and self.next_step < len(_steps.STEPS):
            self.report.notes.append(
                f"interrupted by {signal_name}: the checks from "
                f"{_steps.STEPS[self.next_step][0]} on were not made")
