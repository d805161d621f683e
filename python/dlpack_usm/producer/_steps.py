"""check_report in steps: the inspection of the capsule __dlpack__ gives,
then one step per check of the protocol, each a few calls into the
producer. The Python API runs them in a row (check_report); the command
line runs them contained (_contained), where a step the producer
ended is charged to the call it was in and the next step goes on in a new
process."""

from dataclasses import dataclass

from .._bridge import tensor_json
from .._bridge.errors import BridgeError, NotApplicable, ProducerRaised, UnreadableTensor
from ..rules import finding
from . import (_consumer_probe, _copy_oracle, _cuda, _exchange_api, _exportable, _protocol,
               _stream_race, _sycl)
from ._inspect import inspect, producer_label


@dataclass
class Check:
    """What the steps share: the object, the Inspection of its capsule, and
    what earlier steps found out."""
    obj: object
    base: object
    max_version: tuple
    origin: str
    consumer: object = "auto"
    stream_attempts: int = _stream_race.DEFAULT_ATTEMPTS
    remake: object = None  # evaluates EXPR again (the command line); None in the Python API
    # Whether the producer takes DLPack 1.x keywords: found by the versioned
    # step, or asked where a step needs it before that step ran here.
    speaks_versioned: bool = None
    flagged: bool = False  # an error so far: the consumer probe runs in a child
    # The stream checks, run once for the steps "stream-control" and
    # "stream-race" (_stream_race.StreamExperiment).
    streams: object = None


def origin_of(obj, origin=None):
    """The origin the findings name: `origin`, or the producer's label."""
    if origin is not None:
        return origin
    module, version, kind = producer_label(obj)
    return f"python:{module} {version} {kind}"


def inspect_base(obj, max_version, origin):
    """(Inspection, its findings) of the capsule __dlpack__(max_version=...)
    gives, or (None, [the finding]) where there is no tensor to check but
    something to say. A producer that declines the export itself is
    NotApplicable, with its reason, unless the array's own
    __array_interface__ (or CUDA's or SYCL's) shows elements DLPack can
    describe: refusing those is DLP-PY-EXPORT-RAISED's warning."""
    try:
        try:
            base = inspect(obj, max_version, origin)
        except ProducerRaised:
            # A producer that refuses max_version with anything but TypeError
            # (DLP-PY-KEYWORD-TYPEERROR) is still judged on what __dlpack__() gives.
            base = inspect(obj, None, origin)
    except ProducerRaised as raised:
        return None, [_refusal(obj, raised)]
    except UnreadableTensor as unreadable:
        return None, [_protocol.unreadable_finding(unreadable)]
    except BridgeError as error:
        if error.exit_code != 1:
            raise
        return None, [finding("DLP-PY-CAPSULE-NAME", "__dlpack__", error.message)]
    return base, list(base.findings)


def _refusal(obj, raised):
    """DLP-PY-EXPORT-RAISED for an exportable array; else NotApplicable."""
    reason = _sycl.export_refusal(obj, raised.error)
    if reason is not None:
        raise NotApplicable(reason) from None
    exportable = _exportable.describe(obj)
    if exportable is None:
        # A producer may decline any export: nothing to judge.
        raise NotApplicable(f"{raised.message}: the producer declines to export this object; "
                            "there is no tensor to check") from None
    return finding("DLP-PY-EXPORT-RAISED", "__dlpack__",
                   f"{raised.message} instead of returning a capsule, but {exportable}; there "
                   "is no tensor to check")


def _reading(function):
    """A step that reads capsules: an unreadable one ends it with its finding."""
    def step(check):
        try:
            return function(check)
        except UnreadableTensor as unreadable:
            return [_protocol.unreadable_finding(unreadable)]
    return step


@_reading
def _legacy_default(check):
    return _protocol.check_legacy_default(check.obj, check.base, check.origin)


@_reading
def _legacy_max_version(check):
    return _protocol.check_legacy_max_version(check.obj, check.base, check.origin)


@_reading
def _versioned(check):
    found, check.speaks_versioned = _protocol.check_versioned(check.obj, check.max_version,
                                                              check.origin)
    return found


def _device_agrees(check):
    return _protocol.check_device_agrees(check.obj, check.base)


def _stream_on_cpu(check):
    return _protocol.check_stream_on_cpu(check.obj, check.base, check.max_version)


def _speaks_versioned(check):
    if check.speaks_versioned is None:
        _, check.speaks_versioned = _protocol.check_versioned(check.obj, check.max_version,
                                                              check.origin)
    return check.speaks_versioned


def _grid(check, cells):
    """The copy oracle's cells asked of the producer (producer._copy_oracle)."""
    if not _speaks_versioned(check) or tensor_json.device(check.base.capsule) is None:
        return []
    return _copy_oracle.check_grid(lambda **kwargs: _protocol.ask(check.obj, **kwargs),
                                   check.base, check.max_version, check.origin, cells)


@_reading
def _dl_device(check):
    return _grid(check, ((False, "another"), (False, "own")))


@_reading
def _copy(check):
    return _grid(check, tuple(cell for cell in _copy_oracle.CHECKED
                              if cell not in ((False, "another"), (False, "own"))))


def _cuda_streams(check):
    found, notes = _cuda.check_streams(check.obj, tensor_json.device(check.base.capsule),
                                       check.max_version)
    check.base.notes.extend(notes)
    return found


def _streams(check):
    if check.streams is None:
        check.streams = _stream_race.StreamExperiment(
            check.obj, tensor_json.device(check.base.capsule), check.max_version,
            check.stream_attempts, check.remake)
    return check.streams


def _stream_control(check):
    found, notes = _streams(check).control_findings()
    check.base.notes.extend(notes)
    return found


def _stream_races(check):
    found, notes, blocked = _streams(check).race_findings()
    check.base.notes.extend(notes)
    if blocked is not None:
        raise NotApplicable(blocked)
    return found


def _usm_array_interface(check):
    return _sycl.check_usm_array_interface(check.obj, check.base)


def _exchange_api_capsule(check):
    return _exchange_api.check_exchange_api(check.obj, check.base, check.origin)


def _probe_consumer(check):
    chosen = _consumer_probe.choose(check.consumer, check.base)
    if chosen is None:
        return []
    device = tensor_json.device(check.base.capsule)
    if not check.flagged:
        return _protocol.check_consumer(check.obj, chosen, check.max_version, device)
    # A tensor the rules flagged may crash the consumer (dpnp.from_dlpack
    # aborts the interpreter on some): the probe then runs in a child.
    found, note = _consumer_probe.contained(check.obj, chosen, check.max_version, device)
    if note:
        check.base.notes.append(note)
    return found


# The steps by the names the plan gives them (src/suite/cases/python/
# python_producer_cases.cpp: what each asks, the rule an exception escaping
# it is charged to, their order). "capsule" is the inspection itself.
STEPS = {
    "legacy-default": _legacy_default,
    "legacy-max-version": _legacy_max_version,
    "versioned": _versioned,
    "device-agrees": _device_agrees,
    "stream-cpu": _stream_on_cpu,
    "dl-device": _dl_device,
    "copy": _copy,
    "cuda-streams": _cuda_streams,
    "stream-control": _stream_control,
    "stream-race": _stream_races,
    "usm-array-interface": _usm_array_interface,
    "exchange-api": _exchange_api_capsule,
    "consumer-probe": _probe_consumer,
}


def run_step(check, name):
    """The findings of step `name`; an error among them flags the tensor."""
    found = STEPS[name](check)
    check.flagged = check.flagged or any(item.severity == "error" for item in found)
    return found
