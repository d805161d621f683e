"""The remedies a handoff tries: each is one line a user can write, made
here for real with the same producer and consumer, so that the story says
whether it worked instead of guessing. "direct" is the handoff itself."""

from dataclasses import dataclass

from .._bridge import dlpack
from .._bridge.errors import NotApplicable


@dataclass(frozen=True)
class Remedy:
    name: str
    # What the consumer is given, as a line of Python: {consumer} stands
    # for the consumer's text, x for the producer's array.
    code: str
    # The call that makes the offered object, as the announcement names it
    # (None: x itself is offered).
    made: object
    # offer(x, device) -> the object handed to the consumer; NotApplicable
    # where the remedy means nothing for this tensor (device: what
    # __dlpack__ said, (type, id), or None where it said nothing).
    offer: object
    # Whether the consumer's result is compared with the offered object's
    # own export (a host copy: the copy is what the consumer was given) or
    # with the producer's array.
    compare_with_offered: bool


def _as_given(x, device):
    return x


def _host_copy(x, device):
    """numpy.from_dlpack(x, device="cpu", copy=True): the producer is asked
    for a copy in host memory (DLPack 1.0's dl_device and copy), which most
    consumers take."""
    if device is not None and dlpack.on(device, "kDLCPU"):
        raise NotApplicable("the tensor is in host memory already")
    try:
        import numpy
    except ImportError:
        raise NotApplicable("numpy, which asks for the host copy, is not installed") from None
    return numpy.from_dlpack(x, device="cpu", copy=True)


def _legacy_capsule(x, device):
    """The capsule of x.__dlpack__() (no max_version: a legacy DLPack 0.x
    capsule), handed over as it is: consumers that predate DLPack 1.0, or
    take a capsule, read that one."""
    return x.__dlpack__()


REMEDIES = {
    "direct": Remedy("direct", "{consumer}(x)", None, _as_given, False),
    "host-copy": Remedy("host-copy", "{consumer}(numpy.from_dlpack(x, device=\"cpu\", "
                                     "copy=True))", "numpy.from_dlpack(x, device=\"cpu\", copy=True)",
                        _host_copy, True),
    "legacy-capsule": Remedy("legacy-capsule", "{consumer}(x.__dlpack__())", "x.__dlpack__()",
                             _legacy_capsule, False),
}
