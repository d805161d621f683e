"""The stream a CUDA consumer passes, and whether it reads there (issue 27;
DLP-PY-CONSUMER-STREAM-ZERO, -READ, -DEVICE). On every CUDA device, one
case offers the consumer a float32 vector whose write is still in flight:
the tool makes it with cupy on a non-blocking stream of its own (slow work,
then the write of known values) and exports it as the standard has a
producer do: __dlpack__(stream=S) makes S wait for the write (an event
recorded on the tool's stream; None and 1 are the legacy default stream, 2
the per-thread default stream, -1 nothing), and stream=0 is refused, a
producer must not guess. Every stream the consumer passes is recorded.

Once the consumer returned, the tool waits until the device is idle and
reads what it returned. A result that is a copy holding other values than
the vector's was read on another stream than the one passed. A view of the
vector itself read nothing yet: its stream shows only when the consumer uses
it, so it is not judged. Runs in a case runner (_runner): CUDA starts there,
never in the command's process."""

import time

from .._bridge import dlpack, library, tensor_json
from .._bridge.errors import BridgeError, describe_exception
from ..producer._inspect import read_capsule
from ..producer._stream_race import _extent
from ..rules import finding

ELEMENTS = 1 << 20
ATTEMPTS = 4
SIDE = 4096
ROUNDS = 12


def devices():
    """The ordinals of the CUDA devices cupy sees, or [] where cupy or a
    device is missing. Run in a child process: CUDA must not start in the
    process the case runners fork from."""
    try:
        import cupy
        return list(range(cupy.cuda.runtime.getDeviceCount()))
    except Exception:  # no cupy, no driver, no device: no CUDA case
        return []


def specs(ordinals):
    """A case spec per CUDA device, laid out as the matrix's are."""
    cell = {"name": "stream", "valid": True, "axis": "stream", "features": []}
    return [{"id": f"consumer/cuda:{ordinal}/device/stream", "device": f"cuda:{ordinal}",
             "device_id": ordinal, "memory": "device", "axis": "stream", "value": "stream",
             "cell": cell, "features": []} for ordinal in ordinals]


class LateCudaVector:
    """The producer object of a stream case (see the module)."""

    def __init__(self, ordinal, attempt):
        import cupy
        self._cupy = cupy
        self.ordinal = ordinal
        self.passed = []  # every stream value __dlpack__ was given
        with cupy.cuda.Device(ordinal):
            self._stream = cupy.cuda.Stream(non_blocking=True)
            with self._stream:
                self.array = cupy.full(ELEMENTS, -1.0, dtype=cupy.float32)
                matrix = cupy.full((SIDE, SIDE), 1.0 / SIDE, dtype=cupy.float32)
                for _ in range(ROUNDS):
                    matrix = matrix @ matrix
                cupy.add(cupy.arange(ELEMENTS, dtype=cupy.float32),
                         matrix[0, 0] * SIDE + attempt, out=self.array)
            self._written = self._stream.record()
        import numpy
        # Computed on the host: nothing here may wait for the tool's stream.
        self.expected = (numpy.arange(ELEMENTS, dtype=numpy.float32) +
                         numpy.float32(1 + attempt)).tobytes()

    def _consumer_stream(self, stream):
        cuda = self._cupy.cuda
        if stream is None or stream == 1:
            return cuda.Stream.null
        if stream == 2:
            return cuda.Stream.ptds
        return cuda.ExternalStream(stream)

    def __dlpack_device__(self):
        return (dlpack.device_type("kDLCUDA"), self.ordinal)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.passed.append(stream if stream is None or isinstance(stream, int)
                           else f"<{type(stream).__module__}.{type(stream).__qualname__}>")
        if stream == 0:
            raise BufferError("stream=0 is disallowed for CUDA (None, 1 or 2?)")
        if copy is True or (dl_device is not None and tuple(dl_device) != self.__dlpack_device__()):
            raise BufferError("this producer neither copies nor moves")
        if stream != -1:
            with self._cupy.cuda.Device(self.ordinal):
                self._consumer_stream(stream).wait_event(self._written)
        return self.array.__dlpack__(stream=-1, max_version=max_version)


def _other_device(ordinal, passed):
    """The stream pointers passed that belong to another device."""
    others = []
    for stream in passed:
        if isinstance(stream, int) and stream > 2:
            try:
                device = library.cuda_stream_device(stream)
            except BridgeError:
                continue
            if device != ordinal:
                others.append(f"{stream:#x} (device {device})")
    return others


def _result_bytes(result, ordinal, offered_address):
    """The bytes of the result's elements once the device is idle, or None
    for a view of the offered vector itself."""
    library.cuda_synchronize(ordinal)
    capsule = result.__dlpack__()
    described = read_capsule(capsule, "the consumer's result").capsule
    address, size = _extent(described)
    if address == offered_address:
        return None
    if dlpack.on(tensor_json.device(described), "kDLCPU", "kDLCUDAHost"):
        return library.read_memory(address, size)
    return library.cuda_stream_read(ordinal, 1, address, size)


def _attempt(consumer, ordinal, index, seen):
    """One offer; `seen` collects what the attempts saw."""
    from ._case import _call
    producer = LateCudaVector(ordinal, index)
    result, raised = _call(consumer, producer)
    seen["passed"] += [value for value in producer.passed if value not in seen["passed"]]
    if raised is not None:
        seen["raised"] = describe_exception(raised)
        return
    try:
        read = _result_bytes(result, ordinal, producer.array.data.ptr)
    except BridgeError as error:
        seen["unread"] = error.message
        return
    if read is None:
        seen["views"] += 1
    elif read != producer.expected:
        seen["stale"] += 1
    seen["accepted"] += 1


def _verdict(seen, ordinal):
    """(findings, message) of the attempts."""
    found = []
    passed = ", ".join(repr(value) for value in seen["passed"]) or "nothing"
    if 0 in seen["passed"]:
        found.append(finding("DLP-PY-CONSUMER-STREAM-ZERO", "stream",
                             "passed stream=0 for a kDLCUDA array; 0 is disallowed (None, 1 "
                             "or 2?): the producer refused it"))
    others = _other_device(ordinal, seen["passed"])
    if others:
        found.append(finding("DLP-PY-CONSUMER-STREAM-DEVICE", "stream",
                             f"passed streams of another device than the array's (cuda:{ordinal}): "
                             + ", ".join(others)))
    if seen["stale"]:
        found.append(finding("DLP-PY-CONSUMER-STREAM-READ", "stream",
                             f"passed {passed}; its result held stale elements in {seen['stale']} "
                             f"of {seen['accepted']} attempts: it read on another stream than it "
                             "passed"))
    if seen["accepted"] == 0:
        why = seen.get("raised") or f"its result could not be read: {seen.get('unread')}"
        return found, f"declined ({why}); passed {passed}"
    if seen["views"] == seen["accepted"]:
        return found, (f"passed {passed}; its result is a view of the offered vector, which "
                       "shows its stream only when it uses the data: not judged")
    return found, (f"passed {passed}; no stale read observed in {seen['accepted']} attempts "
                   f"({seen['views']} of them a view)")


def run_stream_case(consumer, spec):
    """The judged record of a stream case."""
    started = time.monotonic()
    ordinal = spec["device_id"]
    seen = {"passed": [], "stale": 0, "views": 0, "accepted": 0}
    for index in range(ATTEMPTS):
        _attempt(consumer, ordinal, index, seen)
        if "raised" in seen:
            break
    found, message = _verdict(seen, ordinal)
    errors = any(item.severity == "error" for item in found)
    declined = seen["accepted"] == 0
    status = "fail" if errors else "warn" if found else "not_supported" if declined else "pass"
    record = dict(spec)
    record.update({"calls": [{"method": "__dlpack__", "stream": value} for value in seen["passed"]],
                   "notes": [], "observation": {"cell": "stream", "valid": True,
                                                "action": "declined" if declined else "accepted"},
                   "outcome": "wrong" if errors else "declined" if declined else "accepted",
                   "status": status, "message": message,
                   "findings": [item.to_json() for item in found],
                   "decline_reason": seen.get("raised", "") if declined else "",
                   "exception_type": "", "duration_ms": 0})
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record
