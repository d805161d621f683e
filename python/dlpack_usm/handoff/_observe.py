"""One handoff observed: the producer's capsule read under the tensor rules
(with what SYCL or CUDA says of its pointer), the producer's elements read
back through its own export, the consumer called on what the remedy offers,
and its result read back and compared. Every call into either library is
announced with its side (PRODUCER, CONSUMER): a crash or hang there is the
runner's to charge, to the side the call names."""

from .._bridge import dlpack, tensor_json
from .._bridge.errors import BridgeError, NotApplicable, describe_exception
from ..consumer import _case, _readback
from ..producer import _steps
from ..producer._foreign import calling
from ..profile import _judge
from ._remedies import REMEDIES

PRODUCER = "the producer: "
CONSUMER = "the consumer: "
# What a pointer's runtime facts say, as the story names them.
POINTER_FACTS = ("usm_kind", "owner_device", "default_context", "cuda_memory_type",
                 "cuda_device")


def _emitted(x, origin):
    """(what __dlpack__(max_version=(1, 3)) emitted, the producer's findings
    beyond information). A producer that declines to export is
    NotApplicable: a library may decline anything."""
    with calling(f"{PRODUCER}{origin}.__dlpack__(max_version=(1, 3))"):
        base, found = _steps.inspect_base(x, dlpack.NEWEST, origin)
    findings = [item.to_json() for item in found if item.severity != "info"]
    if base is None:
        return {"capsule": "unreadable"}, findings, None
    emitted = _judge.emitted(base, None)
    runtime = base.capsule.get("runtime") or {}
    emitted["pointer"] = {key: runtime[key] for key in POINTER_FACTS if key in runtime}
    emitted["summary"] = _judge.summary_text({"emitted": emitted})
    return emitted, findings, tensor_json.device(base.capsule)


def _settle(obj):
    """Waits for the work queued on a SYCL array's queue (dpctl's, dpnp's):
    the handoff asks whether the data arrives, not whether a runtime orders
    one queue after another, which the stream cases judge with their control
    (check --python-producer). Nothing for other arrays."""
    queue = getattr(obj, "sycl_queue", None)
    wait = getattr(queue, "wait", None)
    if callable(wait):
        wait()


def _read(obj, side, what):
    """The View of `obj`'s own export, or (None, why it cannot be read)."""
    try:
        _settle(obj)
        with calling(f"{side}reading {what} back through its __dlpack__"):
            return _readback.read_back(obj), None
    except BridgeError as error:
        return None, error.message
    except BaseException as error:  # noqa: B036 - the library's own code, SystemExit too
        return None, f"reading {what} back raised {describe_exception(error)}"


def _as_offered(view):
    """A View in the terms consumer._case compares with."""
    return {"shape": view.shape, "dtype_code": view.dtype_code, "dtype_bits": view.dtype_bits,
            "dtype": f"code {view.dtype_code} bits {view.dtype_bits}",
            "elements": view.elements.hex(), "element_bytes": (view.dtype_bits + 7) // 8}


def _offer(remedy, x, device):
    """What the consumer is given; NotApplicable where the remedy cannot be
    made here (the producer declined the copy, no numpy)."""
    if remedy.made is None:
        return x
    try:
        with calling(f"{PRODUCER}{remedy.made}"):
            return remedy.offer(x, device)
    except NotApplicable:
        raise
    except BaseException as error:  # noqa: B036 - the producer's (or numpy's) code
        raise NotApplicable(f"{remedy.made} raised {describe_exception(error)}") from None


def _consumed(consumer, consumer_text, offered, summary):
    """(action, fields): what the consumer did with `offered`."""
    with calling(f"{CONSUMER}{consumer_text}(x), x offering {summary}", consumer=True):
        _settle(offered)
        result, raised = _case._call(consumer, offered)
    if raised is not None:
        return "declined", {"exception": describe_exception(raised),
                            "exception_type": type(raised).__name__}
    view, why = _read(result, CONSUMER, "the result")
    del result
    if view is None:
        return "accepted", {"unreadable": why}
    return "accepted", {"view": view}


def _compare(view, expected):
    """The difference between the consumer's result and what it was given,
    as (rule id, message), or None."""
    other = _case._view_difference(view, _as_offered(expected))
    if other:
        return "DLP-CONSUMER-WRONG-VIEW", f"the consumer's result has {other}"
    different = _case._data_difference(view, _as_offered(expected))
    if different:
        return "DLP-CONSUMER-CHECKSUM", f"the consumer's result: {different}"
    return None


def observe_emitted(x, origin):
    """The record fields of a handoff's first step: the producer's capsule
    under the tensor rules, its findings the producer's."""
    emitted, findings, _ = _emitted(x, origin)
    severities = {item.get("severity") for item in findings}
    broken = "error" in severities
    return {"outcome": "fail" if broken else "warn" if "warning" in severities else "pass",
            "exchange": "emitted-invalid" if broken else "emitted",
            "message": f"the producer emitted {emitted.get('summary') or emitted['capsule']}",
            "emitted": emitted.get("summary", ""), "findings": findings,
            "evidence": {"emitted": emitted, "producer_findings": findings}}


def observe(x, origin, consumer, consumer_text, remedy_name):
    """The record fields of one handoff (the worker's record adds id and
    duration): outcome, message, findings, exchange, and the evidence the
    story is told from."""
    try:
        if remedy_name == "emitted":
            return observe_emitted(x, origin)
        emitted, producer_findings, device = _emitted(x, origin)
    except NotApplicable as declined:
        # The producer's own decline: a library may decline any export.
        return {"outcome": "not_supported", "exchange": "refused",
                "message": f"the producer declined: {declined.message}",
                "decline_reason": declined.message, "findings": [],
                "evidence": {"remedy": remedy_name, "reason": declined.message}}
    remedy = REMEDIES[remedy_name]
    evidence = {"remedy": remedy.name, "code": remedy.code.format(consumer=consumer_text)}
    offered = _offer(remedy, x, device)
    expected, unread = _read(offered if remedy.compare_with_offered else x, PRODUCER, "x")
    summary = emitted.get("summary", "") if remedy.made is None else remedy.made
    action, seen = _consumed(consumer, consumer_text, offered, summary)
    del offered
    evidence["consumer"] = {"action": action, **{key: value for key, value in seen.items()
                                                 if key != "view"}}
    # The producer's findings are the "emitted" step's: a handoff's case is
    # about the consumer.
    findings = []
    producer_broke = any(item.get("severity") == "error" for item in producer_findings)
    wrong = None
    if "view" in seen and expected is not None:
        wrong = _compare(seen["view"], expected)
        evidence["consumer"]["result"] = {"shape": seen["view"].shape,
                                          "dtype_code": seen["view"].dtype_code,
                                          "dtype_bits": seen["view"].dtype_bits,
                                          "device": list(seen["view"].device or []),
                                          "equal": wrong is None}
    elif action == "accepted":
        evidence["consumer"]["not_compared"] = unread or seen.get("unreadable")
    if wrong is not None and not producer_broke:
        findings.append({"rule_id": wrong[0], "message": wrong[1]})
    evidence["fault"] = "producer" if producer_broke else "consumer" if wrong else "none"
    return _fields(action, wrong, seen, findings, evidence)


def _fields(action, wrong, seen, findings, evidence):
    if action == "declined":
        return {"outcome": "not_supported", "exchange": "declined",
                "message": f"the consumer declined: {seen['exception']}",
                "decline_reason": seen["exception"], "exception": seen["exception"],
                "findings": findings, "evidence": evidence}
    if wrong is not None:
        return {"outcome": "fail", "exchange": "wrong", "message": wrong[1],
                "findings": findings, "evidence": evidence}
    compared = "its result equals the producer's elements" if "view" in seen else \
        f"its result was not compared: {evidence['consumer'].get('not_compared')}"
    return {"outcome": "pass", "exchange": "accepted",
            "message": f"the consumer accepted; {compared}",
            "findings": findings, "evidence": evidence}
