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
it reads is recorded, never judged. A way of asking that read stale data
is blamed on the producer only after a control (_stream_control): the same
late work handed over by the tool's own wait read nothing stale on the
same consumer queue or stream."""

from dataclasses import dataclass

from .._bridge import dlpack, library, tensor_json
from .._bridge.errors import BridgeError, describe_exception
from ..rules import finding
from . import _control_producers, _cuda, _late, _stream_control
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
    # The consumer's queue (dpctl.SyclQueue) or stream handle the control
    # hands the work over to; None where no control stands for this way.
    consumer: object = None


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
              "that stream", RACE, stream),
        Asked("stream=None", {"stream": None}, on(1), "the legacy default stream", RACE, 1),
        Asked("stream=1", {"stream": 1}, on(1), "the legacy default stream", RACE, 1),
        Asked("stream=2", {"stream": 2}, on(2), "the per-thread default stream", RACE, 2),
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
              on(unordered), "that queue", RACE, unordered),
        Asked("stream=<an in-order dpctl.SyclQueue of the tool>", {"stream": ordered},
              on(ordered), "that queue", RACE, ordered),
        # dpctl: "If None, synchronization is not performed."
        Asked("stream=None", {"stream": None}, on(unordered), "an out-of-order queue of the tool"),
        Asked("dl_device=(kDLCPU, 0), stream=None", host, _host_read, "host memory", CPU_SYNC),
    ]


def _consumer_kind(asked):
    """The consumer queue or stream kind a way of asking reads on, as
    controls and their findings name it."""
    if asked.label.startswith("stream=<"):
        return asked.label[len("stream=<"):asked.label.index(">")]
    return asked.where if asked.where != "that stream" else "a stream of the tool"


class StreamExperiment:
    """The stream checks of one array: its late work, the ways of asking,
    what each read, and the controls of the ways that read stale data.
    Run once (results()), shared by the steps "stream-control" (the
    runtime's finding) and "stream-race" (the producer's)."""

    def __init__(self, obj, device, max_version, attempts, remake):
        self.max_version, self.attempts = tuple(max_version), attempts
        self.source, self.ways, self.stream, self.why_not = None, [], None, None
        self._results = None
        if not (dlpack.on(device, *_cuda.STREAM_DEVICE_TYPES) or dlpack.on(device, "kDLOneAPI")):
            self.why_not = ""  # nothing to check on this device, nothing to say
            return
        if attempts == 0:
            self.why_not = "stream checks not made: 0 attempts asked for"
            return
        self._prepare(obj, device, remake)

    def _prepare(self, obj, device, remake):
        try:
            with calling("preparing the late arrays of the stream checks"):
                self.source, why = _late.late_source(obj, device, remake)
        except BaseException as error:  # noqa: B036 - the library's own failure is no finding
            self.source, why = None, f"making a late array failed: {describe_exception(error)}"
        if self.source is None:
            self.why_not = f"stream checks not made: {why}"
            return
        try:
            if self.source.kind == "cuda":
                self.stream = _cuda.Stream(self.source.ordinal)
                self.ways = _cuda_ways(self.source.ordinal, self.stream.handle)
            else:
                self.ways = _sycl_ways(self.source.queue)
        except BridgeError as error:
            self.why_not = f"stream checks not made: the consumer's stream: {error.message}"

    def results(self):
        """([(Asked, Tally)], ControlVerdict), run the first time asked."""
        if self._results is None:
            try:
                tallies = [(asked, _tally(self.source, asked, self.max_version, self.attempts))
                           for asked in self.ways]
                self._results = tallies, self._controls(tallies)
            finally:
                if self.stream is not None:
                    self.stream.close()
                    self.stream = None
        return self._results

    def _controls(self, tallies):
        """The ControlVerdict of the consumer kinds where the producer's
        export read stale data (one control a kind, by the tool's own
        producer on the same runtime)."""
        stale = []
        for asked, tally in tallies:
            if asked.rule == RACE and tally.stale > 0 and asked.consumer is not None:
                stale.append(asked)
        if not stale:
            return _stream_control.judge_controls(None, [])
        producer, why_not = _control_producers.control_producer(self.source)
        controls = {}
        for asked in stale:
            kind = _consumer_kind(asked)
            if kind not in controls:
                controls[kind] = _stream_control.ControlTally(kind, why_not=why_not)
                if producer is not None:
                    _control_attempts(producer, asked, controls[kind],
                                      self.attempts * _stream_control.CONTROL_FACTOR)
        runtime = producer.runtime if producer is not None else None
        return _stream_control.judge_controls(runtime, list(controls.values()))

    def control_findings(self):
        """(findings, notes) of the step "stream-control"."""
        if self.why_not is not None:
            return [], [self.why_not] if self.why_not else []
        tallies, verdict = self.results()
        if not verdict.notes and not verdict.findings:
            return [], ["no control needed: no way of asking read stale data in "
                        f"{self.attempts} attempts"]
        return verdict.findings, verdict.notes

    def race_findings(self):
        """(findings, notes, blocked) of the step "stream-race": blocked is
        the reason when every judged way of asking was blocked."""
        if self.why_not is not None:
            return [], [self.why_not] if self.why_not else [], None
        tallies, verdict = self.results()
        found, notes, blocked = judge_ways(tallies, verdict)
        label = f"stream checks: {self.source.label}; {self.attempts} attempts a way of asking"
        return found, [label] + notes, blocked


def judge_ways(tallies, verdict):
    """(findings, notes, blocked) of the ways of asking `tallies`
    [(Asked, Tally)], given the controls' ControlVerdict: a way whose
    consumer kind the runtime misorders is not judged; blocked is the
    reason when no way of asking with a rule was left to judge."""
    found, notes, judged = [], [], 0
    for asked, tally in tallies:
        blocked = verdict.blocked.get(_consumer_kind(asked)) if asked.rule == RACE else None
        if blocked is not None and tally.declined is None:
            notes.append(f"{asked.label}: not judged, stale data in {tally.stale} of "
                         f"{tally.attempts} attempts, {blocked}")
            continue
        judged += asked.rule == RACE
        more_found, more_notes = _judge(asked, tally)
        found += more_found
        notes += more_notes
    every_way_blocked = judged == 0 and verdict.blocked and not found
    return found, notes, "; ".join(verdict.blocked.values()) if every_way_blocked else None


def _control_attempts(producer, asked, control, attempts):
    """`attempts` attempts of the control of `asked` into `control`."""
    try:
        with calling(f"the control of {asked.label} ({producer.label})"):
            for _ in range(attempts):
                _stream_control.run_control(control, producer, asked.consumer, asked.read)
    except BaseException as error:  # noqa: B036 - the control's failure blames no one
        control.why_not = (f"its work failed after {control.attempts} attempts: "
                           f"{describe_exception(error.with_traceback(None))}")


def check_stream_races(obj, device, max_version, attempts=DEFAULT_ATTEMPTS, remake=None):
    """(findings, notes) of the stream checks of a CUDA or SYCL array, the
    controls' included; nothing for other devices (the Python API)."""
    experiment = StreamExperiment(obj, device, max_version, attempts, remake)
    if experiment.why_not is not None:
        return [], [experiment.why_not] if experiment.why_not else []
    runtime_found, runtime_notes = experiment.control_findings()
    found, notes, _ = experiment.race_findings()
    return runtime_found + found, notes + runtime_notes


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
