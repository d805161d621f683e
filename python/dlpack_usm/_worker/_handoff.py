"""A handoff case in the worker: the producer's array (EXPR's object, or a
cell made through the producer's namespace, once per cell: setup its cases
share), handed to the consumer as the case's remedy offers it, and the
record of what happened (handoff.observe)."""

from .._bridge.errors import NotApplicable
from ..handoff import PRODUCER, REMEDIES, observe
from ..producer._foreign import MAKING, calling
from ..profile import _cells, _library
from ._records import record


def made(target, case):
    """The producer's array for the case: EXPR's object, or the case's cell
    made on the case's device of the namespace (kept for the next case of
    the same cell). NotApplicable where the namespace cannot make it."""
    if target.obj is not None:
        return target.obj
    key = (case["device_index"], case["cell"])
    if getattr(target, "made_key", None) != key:
        target.made_key, target.made, target.keep = key, None, {}
        cell = _cells.cell(case["cell"], case["cell_axis"], case["cell_value"])
        devices = _library.devices(target.namespace, target.spec.get("library_devices") or None)
        try:
            with calling(f"{MAKING}{PRODUCER}{cell.name}: {cell.description}"):
                target.made = cell.make(target.namespace, devices[case["device_index"]],
                                        target.keep)
        except _cells.NotMade as reason:
            target.made = NotApplicable(f"{cell.description}: {reason}")
        except BaseException as error:  # noqa: B036 - the library's code under test
            target.made = NotApplicable(f"{cell.description} raised {error!r}")
    if isinstance(target.made, NotApplicable):
        raise target.made
    return target.made


def run(target, case):
    """The record of one handoff case."""
    try:
        x = made(target, case)
        origin = target.text if target.obj is not None else f"{target.text} {case['cell']}"
        fields = observe(x, origin, target.consumer, target.consumer_text, case["remedy"])
    except NotApplicable as reason:
        remedy = REMEDIES.get(case["remedy"])
        code = remedy.code.format(consumer=target.consumer_text) if remedy else ""
        return record(case, "not_supported", reason.message, exchange="not-applicable",
                      evidence={"remedy": case["remedy"], "code": code,
                                "reason": reason.message})
    outcome, message, findings = (fields.pop(key) for key in ("outcome", "message", "findings"))
    return record(case, outcome, message, findings, **fields)
