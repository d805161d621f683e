"""The producer side of a library's profile, in the worker: the cell's
array made once for its requests (profile._run.Arrays, announced as setup:
a crash there is charged to every request of the cell), then one request
asked and its answer judged."""

from ..profile import _judge, _library, _run
from ._records import outcome_of_status, record


def _arrays(target):
    """The worker's Arrays of the library under test (one per worker)."""
    if getattr(target, "arrays", None) is None:
        devices = _library.devices(target.namespace, target.spec.get("library_devices") or None)
        target.arrays = _run.Arrays(target.namespace, devices, target.text)
    return target.arrays


def answer(target, case):
    """The record of one request of one cell."""
    judged = _run.run_case(_arrays(target), case)
    outcome = outcome_of_status(judged["status"])
    message = judged["reason"] or judged.get("call", "")
    if judged.get("exception"):
        message = f"{message}: {judged['exception']}" if message else judged["exception"]
    return record(case, outcome, message, judged["findings"], exchange=judged["outcome"],
                  decline_reason=judged["reason"], exception=judged["exception"],
                  emitted=_judge.summary_text(judged), evidence={
                      "call": judged.get("call", ""), "notes": judged.get("notes", []),
                      "emitted": judged.get("emitted"), "memory": judged.get("memory")})
