"""The last step of a producer's check: a real consumer takes a capsule, to
show whether the producer's ownership handling holds up (_protocol's
DLP-PY-CONSUMER-* rules). numpy takes host memory, dpnp kDLOneAPI USM,
where they are importable.

Foreign code on a tensor the rules flagged runs where a crash is
contained: a child process probes the consumer (dpnp.from_dlpack aborts
the whole interpreter on some flagged tensors) and sends its findings back
on its channel. A child that dies or hangs ends the probe as "not
applicable", with the reason; the parent and its findings live on."""

import os

from .._bridge import child, dlpack, tensor_json
from .._bridge.child import TIMEOUT_S
from ..rules import Finding
from . import _foreign, _protocol


def _importable(module, attribute):
    try:
        return getattr(__import__(module), attribute)
    except ImportError:
        return None


def choose(consumer, base):
    """The consumer to probe: `consumer` itself, or for "auto" the one that
    takes the tensor's memory (None where none is importable)."""
    if consumer != "auto":
        return consumer
    device = tensor_json.device(base.capsule)
    if dlpack.on(device, "kDLCPU"):
        return _importable("numpy", "from_dlpack")
    if dlpack.on(device, "kDLOneAPI"):
        return _importable("dpnp", "from_dlpack")
    return None


def contained(obj, consumer, max_version, device, timeout_s=TIMEOUT_S):
    """(findings, note): _protocol.check_consumer run in a child process
    (child.answer). The note is None when the child answered, else why the
    probe is not applicable (a signal, an exit without an answer, a hang)."""
    name = _protocol.consumer_name(consumer)

    def probe(send):
        # Its calls are its own: a contained check's channel is its parent's.
        _foreign.listen(None)
        try:
            found = _protocol.check_consumer(obj, consumer, max_version, device)
        except BaseException:  # noqa: B036 - no answer: the parent notes how the child ended
            os._exit(3)
        send("R", [item.to_json() for item in found])

    # The Python API's caller sees the consumer's prints where it would see
    # them in its own process; a contained check's runner has its stdout on
    # stderr already.
    line, ended = child.answer(probe, timeout_s, keep_stdout=True)
    if line == "timeout":
        return [], (f"not applicable: the consumer probe of {name} hung for {timeout_s} s on "
                    "this flagged tensor; it ran in a child process, which was killed")
    if ended is not None and ended.startswith("SIG"):
        return [], (f"not applicable: {name} crashed ({ended}) on this flagged tensor; the "
                    "probe ran in a child process, so only it died")
    if line is None or line[0] != "R":
        return [], (f"not applicable: the consumer probe of {name} ended without an answer "
                    f"({ended or 'exit status 0'})")
    return [Finding(**entry) for entry in line[1]], None
