"""One case of a Python consumer under test: a cell of the matrix offered
through an OfferedProducer, the consumer called on it, what it returned read
back, the capsule's renaming and the deleter's calls counted once the result
is gone. This module only observes; the verdict is the tool's one consumer
model, asked through the bridge (judge()), as `check --consumer` asks it for
C libraries. Runs in the process it is called in: a Python worker of the
tool's runner (dlpack_usm._worker), which contains it."""

import functools
import gc
import time

from .._bridge import capsules, dlpack, library
from .._bridge.errors import BridgeError, describe_exception
from . import _offers, _readback
from ..producer._foreign import calling
from ..producer._protocol import consumer_name
from ._offered_producer import OfferedProducer

# The plainest tensor of the matrix (float32, 3x5, C order, explicit strides
# at any version): a consumer that declines it on some memory does not
# support that device.
REFERENCE_CELL = "dtype-float32"
# The exception every decline may raise: no need to ask whether it concerns
# the device (TypeError, which earlier revisions recommended for devices,
# is clean there and an info elsewhere: that needs the question).
CLEAN_DECLINE = "BufferError"


@functools.lru_cache(maxsize=1)
def _matrix_cells():
    return {cell["name"]: cell for cell in _offers.matrix()["cells"]}


def matrix_cell(name):
    """The cell `name` of the consumer matrix, as the bridge describes it."""
    return _matrix_cells()[name]


def _view_difference(view, offered):
    """What differs between the view the consumer's result describes (shape,
    dtype) and the offered tensor, or None."""
    if view.shape != offered["shape"]:
        return f"shape {view.shape}, offered {offered['shape']}"
    if (view.dtype_code, view.dtype_bits) != (offered["dtype_code"], offered["dtype_bits"]):
        return (f"dtype code {view.dtype_code} bits {view.dtype_bits}, offered "
                f"{offered['dtype']} (code {offered['dtype_code']} bits {offered['dtype_bits']})")
    return None


def _data_difference(view, offered):
    """What differs between the elements read back and those offered, or None."""
    expected = bytes.fromhex(offered["elements"])
    if view.elements != expected:
        size = offered["element_bytes"] or 1
        first = next(i for i in range(min(len(expected), len(view.elements)) + 1)
                     if i >= min(len(expected), len(view.elements)) or
                     view.elements[i] != expected[i])
        return (f"the elements in logical order differ from element {first // size} on "
                f"({len(view.elements)} bytes read, {len(expected)} offered)")
    return None


def offered_text(cell, memory, device_id):
    """What a cell offers, as a crash report names it: dtype, shape,
    strides, byte_offset, device and memory, version and flags."""
    device = "kDLCPU:0" if memory == "cpu" else f"kDLOneAPI:{device_id}"
    where = "host memory" if memory == "cpu" else f"{memory} USM"
    flags = [name for name in ("READ_ONLY", "IS_COPIED", "IS_SUBBYTE_TYPE_PADDED")
             if int(cell.get("flags") or 0) & dlpack.flag(name)]
    return (f"{cell.get('dtype')} shape {cell.get('shape')} strides {cell.get('strides')} "
            f"byte_offset {cell.get('byte_offset')}, {device} ({where}), DLPack "
            f"{cell.get('version')}, flags {'|'.join(flags) or 0}")


def _call(consumer, producer):
    """(result, exception): the consumer called on the producer. The
    exception keeps neither traceback nor chain: they hold frames that would
    keep the capsule (and so its deleter) alive."""
    try:
        return consumer(producer), None
    except BaseException as error:  # noqa: B036 - SystemExit from a consumer is a decline too
        raised = error.with_traceback(None)
        raised.__context__ = raised.__cause__ = None
        return None, raised


def _release(producer, holder):
    """Drops the result (the one item of `holder`) and the capsules, collects
    garbage only where a deleter has not run yet (a full collection with
    torch loaded costs tens of milliseconds), and returns each offer's final
    state."""
    offers = list(producer.offers)
    holder.clear()
    producer.capsules.clear()
    states = [_offers.state(info["handle"]) for info in offers]
    if any(state["deleter_calls"] == 0 for state in states):
        gc.collect()
        states = [_offers.state(info["handle"]) for info in offers]
    for info in offers:
        _offers.release(info["handle"])
    return states


def _accepted_alone(consumer, cell, memory, device_id):
    """Whether the consumer takes `cell` on `memory` (a twin, or the
    reference cell), the offer released whatever it does."""
    producer = OfferedProducer(cell, memory, device_id)
    result, raised = _call(consumer, producer)
    holder = [result]
    result = None
    _release(producer, holder)
    return raised is None and bool(producer.offers)


def _readback_difference(result, offered):
    """(view, {"view_difference", "data_difference"}): what differs from the
    tensor offered, another view (shape, dtype) or other elements; a result
    that cannot be read back differs in its data: from_dlpack returns an
    array."""
    try:
        view = _readback.read_back(result)
    except BridgeError as error:
        return None, {"data_difference": f"its result could not be read back: {error.message}"}
    except BaseException as error:  # noqa: B036 - the result's own code: SystemExit too
        return None, {"data_difference": f"reading its result back raised "
                                         f"{describe_exception(error)}"}
    other_view = _view_difference(view, offered)
    return view, ({"view_difference": other_view} if other_view else
                  {"data_difference": _data_difference(view, offered)})


def observe(consumer, spec, required=(), on_probe=None):
    """The record of one case (a dict, as the report holds it) with its
    observation: what the consumer did with the cell, in the terms of the
    bridge's consumer verdict (bridge.h, dlpack_usm_bridge_consumer_verdict).
    `on_probe(cell)` is told before another cell is offered to compare with
    (the worker announces it, so that a crash there is charged to it)."""
    cell = spec["cell"]
    producer = OfferedProducer(cell["name"], spec["memory"], spec.get("device_id", 0))
    # Announced with what is offered: a crash report names the tensor.
    with calling(f"{consumer_name(consumer)}(x), x offering "
                 f"{offered_text(cell, spec['memory'], spec.get('device_id', 0))}", consumer=True):
        result, raised = _call(consumer, producer)
    view, difference = None, {}
    if raised is None and producer.offers and cell["valid"]:
        view, difference = _readback_difference(result, producer.offers[-1])
    renamed = [capsules.capsule_name(capsule) for capsule in producer.capsules]
    offers = list(producer.offers)
    # Before the result dies: 0 where the consumer still uses the memory
    # (zero copy), 1 where it copied and let go.
    while_alive = [_offers.state(info["handle"])["deleter_calls"] for info in offers]
    holder = [result]
    result = None
    states = _release(producer, holder)

    record = dict(spec)
    record.update({"calls": producer.calls, "notes": producer.notes,
                   "offers": [{key: info[key] for key in ("version", "capsule_name", "device",
                                                          "flags", "checksum")}
                              for info in offers],
                   "capsule_names_after": renamed,
                   "deleter_calls_before_result_died": while_alive,
                   "deleter_calls": [state["deleter_calls"] for state in states]})
    if raised is not None:
        record["raised"] = {"type": type(raised).__name__, "message": str(raised)}
    if view is not None:
        record["result"] = {"device": list(view.device or []), "dtype_code": view.dtype_code,
                            "dtype_bits": view.dtype_bits, "shape": view.shape,
                            "flags": view.flags, "read_through": view.how}
        if any(info["flags"] & dlpack.flag("READ_ONLY") for info in offers):
            # Whether the consumer kept READ_ONLY on what it gives its users.
            record["result"]["read_only"] = "READ_ONLY" in view.flags
    seen = {"cell": cell["name"], "valid": cell["valid"],
            "broken_rule": cell.get("broken_rule", ""),
            "unknown_major": cell.get("unknown_major", False),
            "null_deleter": cell.get("null_deleter", False),
            "read_only": any(info["flags"] & dlpack.flag("READ_ONLY") for info in offers),
            "deleter_calls": sum(state["deleter_calls"] for state in states),
            "expected_deleter_calls": len(offers),
            "read_only_bytes_written": sum(state["written_bytes"] for state in states),
            "required_features": sorted(set(required) & set(spec["features"]))}
    seen.update(_what_happened(producer, raised, offers, renamed, difference))
    if seen["action"] == "declined" and cell["valid"] and producer.consumer_too_old is None:
        _probe_decline(consumer, spec, seen, on_probe or (lambda cell: None))
    record["observation"] = seen
    return record


def _what_happened(producer, raised, offers, renamed, difference):
    """The observation's action and what goes with it."""
    if producer.untestable is not None:
        return {"action": "not_applicable", "reason": producer.untestable}
    if producer.consumer_too_old is not None:
        # The consumer's max_version says it does not take this cell: a
        # decline, with no exception of its own.
        return {"action": "declined",
                "reason": f"declined by max_version: {producer.consumer_too_old}"}
    if raised is not None:
        return {"action": "declined", "reason": describe_exception(raised),
                "exception_type": type(raised).__name__}
    if not offers:
        return {"action": "never_imported"}
    return {"action": "accepted", **difference,
            "capsule_not_renamed": any(name in capsules.TENSOR_NAMES for name in renamed)}


def _probe_decline(consumer, spec, seen, on_probe):
    """After a decline of a valid cell: whether the consumer takes the cell's
    compact twin, and, for an exception the specification does not name for
    devices, whether it declines the plainest tensor on this memory too."""
    cell, memory, device_id = spec["cell"], spec["memory"], spec.get("device_id", 0)
    if cell.get("twin"):
        on_probe(cell["twin"])
        seen["twin"] = {"cell": cell["twin"],
                        "accepted": _accepted_alone(consumer, cell["twin"], memory, device_id)}
    if seen.get("exception_type", "") in (CLEAN_DECLINE, ""):
        return
    if cell["name"] == REFERENCE_CELL:
        seen["device_declined"] = True
        return
    on_probe(REFERENCE_CELL)
    seen["device_declined"] = not _accepted_alone(consumer, REFERENCE_CELL, memory, device_id)


def judge(record):
    """The record with the verdict of its observation: outcome (the profile
    class), status, message, findings, and a decline's reason and
    exception type as fields."""
    verdict = library.consumer_verdict(record["observation"])
    record.update({"outcome": verdict["outcome"], "status": verdict["status"],
                   "message": verdict["message"], "findings": verdict["findings"],
                   "decline_reason": verdict["decline_reason"],
                   "exception_type": verdict["exception_type"]})
    return record


def run_case(consumer, spec, required=(), on_probe=None):
    """The judged record of one case, timed."""
    if spec.get("axis") == "stream":
        from . import _cuda_stream
        return _cuda_stream.run_stream_case(consumer, spec)
    started = time.monotonic()
    record = judge(observe(consumer, spec, required, on_probe))
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record
