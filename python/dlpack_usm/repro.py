"""What a crash report's standalone snippet calls (issue 35): the tensor a
consumer case offered, made as the tool makes it, and the consumer named
as the tool names it, in a plain interpreter with no runner, worker or
containment around them. A crash then happens in your own process, where
a debugger (python3 -X faulthandler, gdb --args python3 ...) sees it.

    from dlpack_usm.repro import offered, consumer
    consumer("numpy.from_dlpack")(offered("f-order", "cpu"))
"""

from ._worker._target import consumer_of
from .consumer._offered_producer import OfferedProducer

__all__ = ["consumer", "offered"]


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
