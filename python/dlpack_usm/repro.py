"""What a crash report's standalone snippet calls (issue 35): the tensor a
consumer case offered, made as the tool makes it, and the consumer named
as the tool names it, in a plain interpreter with no runner, worker or
containment around them. A crash then happens in your own process, where
a debugger (python3 -X faulthandler, gdb --args python3 ...) sees it.

    from dlpack_usm.repro import offered, consumer
    consumer("numpy.from_dlpack")(offered("f-order", "cpu"))

A handoff's (dlpack-usm handoff PRODUCER CONSUMER) gives the producer's
tensor to the consumer as the case did:

    from dlpack_usm.repro import handoff
    handoff("dpnp", "torch", "direct", cell="f-order")

A producer's step (check --python-producer EXPR) is asked of EXPR's object
as the case asked it, and gives the step's findings:

    from dlpack_usm.repro import producer_step
    print(producer_step("numpy.arange(6.0)[::-2]", "versioned"))
"""

from ._worker._target import consumer_of
from .consumer._offered_producer import OfferedProducer

__all__ = ["consumer", "handoff", "offered", "producer_step"]


def offered(cell, memory="cpu", device_id=0):
    """The producer object of consumer case `cell` (a name of the consumer
    matrix, as `check --list` shows it) in `memory` ("cpu", or "host",
    "device", "shared" USM of kDLOneAPI root device `device_id`): it
    exports the cell's tensor when asked, as in the case."""
    return OfferedProducer(cell, memory, device_id)


def consumer(expr):
    """The callable EXPR gives (numpy.from_dlpack, a function of yours),
    evaluated as `check --python-consumer EXPR` evaluates it: every module
    it names imported on first use."""
    return consumer_of(expr)


def handoff(producer, consumer, remedy="direct", cell=None, device_index=0):
    """What the consumer CONSUMER returns for the producer's tensor, handed
    over as `remedy` ("direct", "host-copy", "legacy-capsule") does: the
    producer EXPR's object, or for a producer MODULE the profile cell `cell`
    made on its device `device_index`."""
    from ._worker._handoff import made
    from ._worker._target import Target
    from .handoff import REMEDIES
    target = Target({"role": "handoff", "text": producer, "consumer": consumer})
    target.prepare()
    x = made(target, {"device_index": device_index, "cell": cell, **_cell_axis(cell)})
    return target.consumer(REMEDIES[remedy].offer(x, None))


def producer_step(producer, step, max_version="1.3"):
    """The findings of step `step` ("capsule", "versioned", "device-agrees",
    ... as `check --list` names them after "producer/") of the producer
    EXPR, asked with `max_version` as `check --python-producer EXPR` asks:
    the capsule read first, then the step's calls, in this process."""
    from ._worker._producer_steps import inspected_capsule
    from ._worker._target import Target
    from .producer import _steps
    target = Target({"role": "producer", "text": producer, "max_version": max_version})
    target.prepare()
    inspected = inspected_capsule(target)
    if step == "capsule" or inspected.check is None:
        return inspected.findings
    return _steps.run_step(inspected.check, step)


def _cell_axis(cell):
    """The axis and value of profile cell `cell` (the worker is told them)."""
    if cell is None:
        return {}
    for prefix, axis in (("dtype-", "dtype"), ("ndim-", "ndim"), ("size0-", "size0")):
        if cell.startswith(prefix):
            return {"cell_axis": axis, "cell_value": cell[len(prefix):]}
    if cell == "read-only":
        return {"cell_axis": "read-only", "cell_value": "read-only"}
    return {"cell_axis": "layout", "cell_value": cell}
