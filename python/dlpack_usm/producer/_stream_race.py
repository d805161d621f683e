"""Is the data ready on the stream the consumer passed? (issue 27;
DLP-PY-STREAM-RACE, DLP-PY-STREAM-CPU-SYNC.) The tool stands for a
consumer: for every way of asking (a `stream` value, or dl_device=kDLCPU),
it takes a fresh array whose write is still in flight (_late), calls
__dlpack__ at once, and reads the elements where the consumer would: on
the stream or queue it passed, or the host memory of a kDLCPU capsule.
Then it waits until the device is idle and reads again. Elements that
changed were stale when first read: the producer handed them out before
its write was ordered before the consumer's work.

A race shows only under the right timing: every way of asking gets
`attempts` attempts, and a finding says in how many stale data was read. A
clean run is "no race observed in N attempts", a note, never a proof.
stream=-1 (and, for dpctl's queues, None) asks for no synchronisation: what
it reads is recorded, never judged."""

from dataclasses import dataclass

from .._bridge import dlpack, library, tensor_json
from .._bridge.errors import BridgeError, describe_exception
from ..rules import finding
from . import _cuda, _late
from ._foreign import calling
from ._inspect import read_capsule

DEFAULT_ATTEMPTS = 16
RACE = "DLP-PY-STREAM-RACE"
CPU_SYNC = "DLP-PY-STREAM-CPU-SYNC"


@dataclass
class Asked:
    """One way of asking for the capsule: the keywords of __dlpack__, how
    the consumer then reads (read(address, size) -> bytes, where: its name
    in messages) and the rule a stale read breaks (None: recorded only)."""
    label: str
    keywords: dict
    read: object
    where: str
    rule: str = None


@dataclass
class Tally:
    """What the attempts of one way of asking saw."""
    attempts: int = 0
    stale: int = 0
    differing: int = 0  # the most bytes one stale read got wrong
    size: int = 0
    declined: str = None  # why this way of asking gave nothing to read


def _extent(capsule):
    """(address, size) of the bytes the tensor's elements span."""
    tensor = capsule["dl_tensor"]
    dtype = tensor["dtype"]
    element = (dtype["bits"] * dtype["lanes"] + 7) // 8
    shape = tensor.get("shape") or []
    strides = tensor.get("strides")
    if strides is None:
        strides, running = [], 1
        for extent in reversed(shape):
            strides.insert(0, running)
            running *= extent
    if any(extent == 0 for extent in shape):
        return tensor_json.data_address(capsule), 0
    low = sum(min(0, (extent - 1) * stride) for extent, stride in zip(shape, strides))
    high = sum(max(0, (extent - 1) * stride) for extent, stride in zip(shape, strides))
    start = tensor_json.data_address(capsule) + tensor["byte_offset"] + low * element
    return start, (high - low + 1) * element


def _export(late, keywords, max_version):
    """late.__dlpack__(**keywords) as a consumer asks: with max_version,
    without it where the producer raises TypeError."""
    shown = ", ".join(f"{key}={value!r}" for key, value in keywords.items())
    try:
        with calling(f"__dlpack__({shown}, max_version={max_version!r})"):
            return late.__dlpack__(max_version=max_version, **keywords)
    except TypeError:
        with calling(f"__dlpack__({shown})"):
            return late.__dlpack__(**keywords)


def _attempt(source, asked, max_version, index, tally):
    """One fresh late array, exported and read at once, then read again
    once the device is idle. False when the producer declined."""
    with source.current():
        try:
            with calling(f"making a late array ({source.label})"):
                late = source.make(index)
        except BaseException as error:  # noqa: B036 - the tool's work failed, not the producer
            tally.declined = (f"making a late array raised "
                              f"{describe_exception(error.with_traceback(None))}")
            return False
        try:
            capsule = _export(late, asked.keywords, max_version)
        except BaseException as error:  # noqa: B036 - a decline is recorded, whatever it raises
            tally.declined = f"__dlpack__ raised {describe_exception(error.with_traceback(None))}"
            return False
    inspection = read_capsule(capsule, "stream check")
    wanted = asked.keywords.get("dl_device")
    if wanted is not None and tensor_json.device(inspection.capsule) != tuple(wanted):
        tally.declined = (f"__dlpack__ returned a tensor on {tensor_json.device(inspection.capsule)}"
                          " (DLP-PY-DL-DEVICE-FOREIGN's business)")
        return False
    address, size = _extent(inspection.capsule)
    now = asked.read(address, size)
    with calling("waiting until the device is idle"):
        source.settle(late)
    later = asked.read(address, size)
    del capsule, late
    tally.attempts += 1
    tally.size = size
    if now != later:
        tally.stale += 1
        tally.differing = max(tally.differing, sum(a != b for a, b in zip(now, later)))
    return True


def _judge(asked, tally):
    """(findings, notes) of one way of asking."""
    if tally.declined is not None:
        return [], [f"{asked.label}: not judged, {tally.declined}"]
    if tally.stale == 0:
        return [], [f"{asked.label}: no race observed in {tally.attempts} attempts (read on "
                    f"{asked.where} at once)"]
    seen = (f"stale data in {tally.stale} of {tally.attempts} attempts: read on {asked.where} as "
            f"soon as __dlpack__ returned, up to {tally.differing} of {tally.size} bytes differed "
            "from what they held once the device was idle")
    if asked.rule is None:
        return [], [f"{asked.label} (no synchronisation asked): {seen}, as it allows"]
    return [finding(asked.rule, "__dlpack__", f"{asked.label}: {seen}; the producer did not order "
                    "its pending write before the consumer's work")], []


def _cuda_ways(ordinal, stream):
    def on(handle):
        return lambda address, size: library.cuda_stream_read(ordinal, handle, address, size)
    host = {"dl_device": (dlpack.device_type("kDLCPU"), 0), "stream": None}
    return [
        Asked(f"stream={stream:#x} (a stream of the tool)", {"stream": stream}, on(stream),
              "that stream", RACE),
        Asked("stream=None", {"stream": None}, on(1), "the legacy default stream", RACE),
        Asked("stream=1", {"stream": 1}, on(1), "the legacy default stream", RACE),
        Asked("stream=2", {"stream": 2}, on(2), "the per-thread default stream", RACE),
        Asked("stream=-1", {"stream": -1}, on(stream), "a stream of the tool"),
        Asked("dl_device=(kDLCPU, 0), stream=None", host, _host_read, "host memory", CPU_SYNC),
    ]


def _host_read(address, size):
    data = library.read_memory(address, size)
    if data is None:
        raise BridgeError(f"the kDLCPU capsule's {size} bytes at {address:#x} are not readable",
                          "DLP-PY-MEMORY-UNREADABLE says so for the array itself", exit_code=1)
    return data


def _sycl_ways(queue):
    import dpctl
    unordered = dpctl.SyclQueue(queue.sycl_context, queue.sycl_device)
    ordered = dpctl.SyclQueue(queue.sycl_context, queue.sycl_device, property="in_order")

    def on(tool_queue):
        return lambda address, size: library.sycl_queue_read(tool_queue.addressof_ref(), address,
                                                             size)
    host = {"dl_device": (dlpack.device_type("kDLCPU"), 0), "stream": None}
    return [
        Asked("stream=<an out-of-order dpctl.SyclQueue of the tool>", {"stream": unordered},
              on(unordered), "that queue", RACE),
        Asked("stream=<an in-order dpctl.SyclQueue of the tool>", {"stream": ordered},
              on(ordered), "that queue", RACE),
        # dpctl: "If None, synchronization is not performed."
        Asked("stream=None", {"stream": None}, on(unordered), "an out-of-order queue of the tool"),
        Asked("dl_device=(kDLCPU, 0), stream=None", host, _host_read, "host memory", CPU_SYNC),
    ]


def check_stream_races(obj, device, max_version, attempts=DEFAULT_ATTEMPTS, remake=None):
    """(findings, notes) of the stream checks of a CUDA or SYCL array;
    nothing for other devices."""
    if not (dlpack.on(device, *_cuda.STREAM_DEVICE_TYPES) or dlpack.on(device, "kDLOneAPI")):
        return [], []
    if attempts == 0:
        return [], ["stream checks not made: 0 attempts asked for"]
    try:
        with calling("preparing the late arrays of the stream checks"):
            source, why = _late.late_source(obj, device, remake)
    except BaseException as error:  # noqa: B036 - the library's own failure is no finding
        source, why = None, f"making a late array failed: {describe_exception(error)}"
    if source is None:
        return [], [f"stream checks not made: {why}"]
    stream = None
    try:
        if source.kind == "cuda":
            stream = _cuda.Stream(source.ordinal)
            ways = _cuda_ways(source.ordinal, stream.handle)
        else:
            ways = _sycl_ways(source.queue)
    except BridgeError as error:
        return [], [f"stream checks not made: the consumer's stream: {error.message}"]
    found, notes = [], [f"stream checks: {source.label}; {attempts} attempts a way of asking"]
    try:
        for asked in ways:
            more_found, more_notes = _judge(asked, _tally(source, asked, max_version, attempts))
            found += more_found
            notes += more_notes
    finally:
        if stream is not None:
            stream.close()
    return found, notes


def _tally(source, asked, max_version, attempts):
    """The attempts of one way of asking; a read the runtime refuses ends
    them, as a decline does."""
    tally = Tally()
    try:
        for index in range(attempts):
            if not _attempt(source, asked, tuple(max_version), index, tally):
                break
    except BridgeError as error:
        tally.declined = f"the tool could not read what it got: {error.message}"
    return tally
