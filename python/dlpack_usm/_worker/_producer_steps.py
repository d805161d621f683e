"""The check of a Python producer, in the worker: EXPR evaluated once (the
target), its capsule read once under the tensor rules (the "capsule"
step), then one step of the protocol per case (producer._steps). An
exception of the producer's code that escapes a step is a finding of the
step's rule (the plan names it); one of the tool's own code is the case's
error."""

import os
import traceback

from .._bridge.errors import NotApplicable, describe_exception
from .._expression import evaluate
from ..producer import _steps
from ..producer._foreign import MAKING, calling
from ..rules import finding
from ._records import record

# The whole package (dlpack_usm/), whose frames are no producer's code.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Inspected:
    """The capsule of EXPR's object as read once per worker: the Check the
    steps share, the findings of the capsule itself, or why there is no
    tensor to check."""

    def __init__(self, target):
        spec = target.spec
        max_version = tuple(int(part) for part in spec["max_version"].split("."))
        self.check, self.reason = None, None
        try:
            # The setup every step shares (python_producer_cases.hpp).
            with calling(f"{MAKING}the capsule of {target.text}"):
                base, self.findings = _steps.inspect_base(target.obj, max_version, target.text)
        except NotApplicable as reason:
            base, self.findings, self.reason = None, [], reason.message
        if base is None:
            self.reason = self.reason or "there is no tensor to check: " + "; ".join(
                item.message for item in self.findings)
            return
        consumer = "auto" if spec.get("consumer_probe", True) else None
        attempts = spec.get("stream_attempts") or _steps._stream_race.DEFAULT_ATTEMPTS
        # flagged: the consumer probe runs in a child of its own, whatever
        # the rules found, so that a consumer's crash is never the producer's.
        self.check = _steps.Check(target.obj, base, max_version, target.text, consumer, attempts,
                                  lambda: evaluate(target.text), flagged=True)


def inspected_capsule(target):
    """The capsule of the target's object, read once per worker."""
    if getattr(target, "inspected", None) is None:
        target.inspected = _Inspected(target)
    return target.inspected


def _foreign_frame(error):
    """"FILE:LINE in FUNCTION" of the innermost frame of `error`'s traceback
    where that is not the package's code, else None."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames or os.path.abspath(frames[-1].filename).startswith(PACKAGE + os.sep):
        return None
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}"


def _step_findings(check, case):
    """The step's findings; an exception of the producer's code that escaped
    it is a finding of its rule (a note where it has none)."""
    try:
        return _steps.run_step(check, case["step"])
    except BaseException as error:  # noqa: B036 - SystemExit from the producer's code too
        where = _foreign_frame(error)
        if where is None:
            raise
        message = (f"the producer's code raised {describe_exception(error)} ({where}) while "
                   f"the checker asked {case['asked']}; the rest of this step was not made")
        if not case["escape_rule"]:
            check.base.notes.append(f"not applicable: {message}")
            return []
        return [finding(case["escape_rule"], case["asked"], message)]


def _outcome(found):
    severities = {item.severity for item in found}
    return "fail" if "error" in severities else "warn" if "warning" in severities else "pass"


def run_step(target, case):
    """The record of step case["step"] ("capsule": the capsule's own)."""
    inspected = inspected_capsule(target)
    if inspected.check is None:
        if case["step"] == "capsule" and inspected.findings:
            return record(case, _outcome(inspected.findings), inspected.reason,
                          inspected.findings)
        return record(case, "not_supported", inspected.reason)
    base = inspected.check.base
    if case["step"] == "capsule":
        found, notes = inspected.findings, base.reader_notes + base.notes
        evidence = {"capsule_name": base.capsule_name, "capsule": base.capsule, "notes": notes}
    else:
        noted = len(base.notes)
        try:
            found = _step_findings(inspected.check, case)
        except NotApplicable as blocked:  # a runtime's defect blocks the step (not_supported)
            return record(case, "not_supported", blocked.message,
                          evidence={"notes": base.notes[noted:]})
        notes = base.notes[noted:]
        evidence = {"notes": notes}
    # The recorder follows the message with the findings (case_recorder.cpp).
    message = "; ".join(notes) if notes else case["asked"] if found else \
        f"{case['asked']}: no finding"
    return record(case, _outcome(found), message, found, evidence=evidence)
