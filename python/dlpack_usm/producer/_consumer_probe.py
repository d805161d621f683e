"""The last step of a producer's check: a real consumer takes a capsule, to
show whether the producer's ownership handling holds up (_protocol's
DLP-PY-CONSUMER-* rules). numpy takes host memory, dpnp kDLOneAPI USM,
where they are importable.

Foreign code on a tensor the rules flagged runs where a crash is
contained: a forked child process probes the consumer (dpnp.from_dlpack
aborts the whole interpreter on some flagged tensors) and sends its findings
back through a pipe. A child that dies or hangs ends the probe as "not
applicable", with the reason; the parent and its findings live on."""

import faulthandler
import json
import os
import select
import signal
import time

from .._bridge import tensor_json
from ..rules import Finding
from . import _foreign, _protocol

TIMEOUT_S = 60


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
    if device is None:
        return None
    if device[0] == tensor_json.KDL_CPU:
        return _importable("numpy", "from_dlpack")
    if device[0] == tensor_json.KDL_ONEAPI:
        return _importable("dpnp", "from_dlpack")
    return None


def _read_all(descriptor, deadline):
    chunks = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([descriptor], [], [], remaining)
        if not ready:
            return None
        chunk = os.read(descriptor, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def contained(obj, consumer, max_version, device, timeout_s=TIMEOUT_S):
    """(findings, note): _protocol.check_consumer run in a forked child. The
    note is None when the child answered, else why the probe is not
    applicable (a signal, an exit without an answer, a hang)."""
    name = _protocol.consumer_name(consumer)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: probe, answer, and leave without cleaning up
        os.close(read_end)
        # Its crash is the parent's to report, not a traceback of every thread.
        faulthandler.disable()
        # Its calls are its own: a contained check's channel is its parent's.
        _foreign.listen(None)
        status = 0
        try:
            found = _protocol.check_consumer(obj, consumer, max_version, device)
            os.write(write_end, json.dumps([item.to_json() for item in found]).encode())
        except BaseException:
            status = 3
        finally:
            os._exit(status)
    os.close(write_end)
    answer = _read_all(read_end, time.monotonic() + timeout_s)
    os.close(read_end)
    if answer is None:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if answer is None:
        return [], (f"not applicable: the consumer probe of {name} hung for {timeout_s} s on "
                    "this flagged tensor; it ran in a child process, which was killed")
    if os.WIFSIGNALED(status):
        signame = signal.Signals(os.WTERMSIG(status)).name
        return [], (f"not applicable: {name} crashed ({signame}) on this flagged tensor; the "
                    "probe ran in a child process, so only it died")
    if not answer:
        return [], (f"not applicable: the consumer probe of {name} ended without an answer "
                    f"(exit status {os.WEXITSTATUS(status)})")
    return [Finding(**entry) for entry in json.loads(answer)], None
