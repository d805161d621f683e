"""One case of a Python consumer under test: a cell of the matrix offered
through an OfferedProducer, the consumer called on it, what it returned read
back, the capsule's renaming and the deleter's calls counted once the result
is gone. Runs in the process it is called in (_consumer_runner contains it)."""

import functools
import gc
import time

from . import _capsules, _offers, _readback, rules
from ._errors import BridgeError, describe_exception
from ._offered_producer import OfferedProducer

# Outcome by the first rule broken, most telling first.
OUTCOME_OF_RULE = {"DLP-CONSUMER-ACCEPTS-INVALID": "accepted-invalid",
                   "DLP-CONSUMER-REJECTS-VALID": "refused", "DLP-CONSUMER-CHECKSUM": "wrong",
                   "DLP-CONSUMER-WRITES-READ-ONLY": "wrong",
                   "DLP-CONSUMER-DELETER-COUNT": "deleter-misuse",
                   "DLP-PY-CONSUMER-RENAME": "deleter-misuse"}


@functools.lru_cache(maxsize=None)
def _catalog_severities():
    """The consumer rules' severities in the tool's catalog (once per process)."""
    return _offers.matrix()["severities"]


def _severity(rule):
    python_rule = rules.find_rule(rule)
    return python_rule.severity if python_rule else _catalog_severities()[rule]


def _finding(rule, message):
    return {"rule_id": rule, "severity": _severity(rule), "message": f"rule {rule}: {message}"}


def _compare(view, offered):
    """What differs between the consumer's view and the offered tensor."""
    if view.shape != offered["shape"]:
        return f"shape {view.shape}, offered {offered['shape']}"
    if (view.dtype_code, view.dtype_bits) != (offered["dtype_code"], offered["dtype_bits"]):
        return (f"dtype code {view.dtype_code} bits {view.dtype_bits}, offered "
                f"{offered['dtype']} (code {offered['dtype_code']} bits {offered['dtype_bits']})")
    expected = bytes.fromhex(offered["elements"])
    if view.elements != expected:
        size = offered["element_bytes"] or 1
        first = next(i for i in range(min(len(expected), len(view.elements)) + 1)
                     if i >= min(len(expected), len(view.elements)) or
                     view.elements[i] != expected[i])
        return (f"the elements in logical order differ from element {first // size} on "
                f"({len(view.elements)} bytes read, {len(expected)} offered)")
    return None


def _without_tensor(producer, cell, raised):
    """Outcome, status, message and findings of a case where no tensor
    reached the consumer: the cell cannot be tested here, or the consumer
    never called __dlpack__."""
    if producer.untestable is not None:
        return {"outcome": "declined", "status": "not_applicable", "findings": [],
                "message": f"not applicable: {producer.untestable}"}
    if producer.consumer_too_old is not None:
        return {"outcome": "declined", "status": "not_supported", "findings": [],
                "message": f"declined by max_version: {producer.consumer_too_old}"}
    if raised is None:
        finding = _finding("DLP-CONSUMER-CHECKSUM", "the consumer returned without calling "
                           "__dlpack__, so it read no element of the tensor")
        return {"outcome": "wrong", "status": "fail", "findings": [finding],
                "message": finding["message"]}
    why = f"{describe_exception(raised)} before calling __dlpack__"
    if isinstance(raised, BufferError):
        return {"outcome": "declined", "findings": [], "message": f"declined with {why}",
                "status": "not_supported" if cell["valid"] else "pass"}
    if not cell["valid"]:
        return {"outcome": "refused", "status": "pass", "findings": [],
                "message": f"refused with {why}"}
    finding = _finding("DLP-CONSUMER-REJECTS-VALID", f"the valid tensor was rejected: {why}")
    return {"outcome": "refused", "status": "fail", "findings": [finding],
            "message": finding["message"]}


def run_case(consumer, spec):
    """The result of one case (a dict, as the report's "results" hold it)."""
    started = time.monotonic()
    cell = spec["cell"]
    producer = OfferedProducer(cell["name"], spec["memory"], spec.get("device_id", 0))
    findings, raised, result, view, unread = [], None, None, None, None
    try:
        result = consumer(producer)
    except BaseException as error:  # noqa: B036 - SystemExit from a consumer is a finding too
        # Without its traceback and chain, the exception holds no frame that
        # keeps the capsule (and so the deleter) from running.
        raised = error.with_traceback(None)
        raised.__context__ = raised.__cause__ = None
    if raised is None and producer.offers:
        try:
            view = _readback.read_back(result)
        except BridgeError as error:
            unread = error.message
        except Exception as error:  # the consumer's own object failed to re-export
            unread = f"reading the result back raised {describe_exception(error)}"
    renamed = [_capsules.capsule_name(capsule) for capsule in producer.capsules]
    offers = list(producer.offers)
    # Before the result dies: 0 where the consumer still uses the memory
    # (zero copy), 1 where it copied and let go.
    while_alive = [_offers.state(info["handle"])["deleter_calls"] for info in offers]
    result = None
    gc.collect()
    producer.capsules.clear()
    gc.collect()
    states = [_offers.state(info["handle"]) for info in offers]
    for info in offers:
        _offers.release(info["handle"])

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
        if any(info["flags"] & 1 for info in offers):
            # Whether the consumer kept READ_ONLY on what it gives its users.
            record["result"]["read_only"] = "READ_ONLY" in view.flags
    if unread is not None:
        record["result_unread"] = unread

    if producer.untestable is not None or producer.consumer_too_old is not None or not offers:
        record.update(_without_tensor(producer, cell, raised))
        record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
        return record

    offered = offers[-1]
    if raised is not None and not isinstance(raised, BufferError) and cell["valid"]:
        findings.append(_finding("DLP-CONSUMER-REJECTS-VALID",
                                 f"the valid tensor was rejected: {describe_exception(raised)}"))
    if raised is None and not cell["valid"]:
        findings.append(_finding("DLP-CONSUMER-ACCEPTS-INVALID",
                                 f"the invalid tensor ({cell['name']}) was accepted"))
    if raised is None and cell["valid"] and view is not None:
        difference = _compare(view, offered)
        if difference:
            findings.append(_finding("DLP-CONSUMER-CHECKSUM", difference))
    written = sum(state["written_bytes"] for state in states)
    if written and any(info["flags"] & 1 for info in offers):
        findings.append(_finding("DLP-CONSUMER-WRITES-READ-ONLY",
                                 f"{written} bytes of the READ_ONLY tensor's memory changed"))
    calls = sum(state["deleter_calls"] for state in states)
    if calls != len(offers):
        findings.append(_finding(
            "DLP-CONSUMER-DELETER-COUNT",
            f"the deleter ran {calls} times for {len(offers)} tensor(s) once the consumer's "
            "result was deleted and collected (must be once each)"))
    if raised is None and any(name in _capsules.TENSOR_NAMES for name in renamed):
        findings.append(_finding("DLP-PY-CONSUMER-RENAME",
                                 f"the consumer returned, and its capsule is still named "
                                 f"{renamed!r}, not used_*"))
    record["findings"] = findings
    if findings:
        record["outcome"] = OUTCOME_OF_RULE[findings[0]["rule_id"]]
        record["status"] = "fail"
        record["message"] = findings[0]["message"]
    elif raised is None:
        record["outcome"] = "accepted" if cell["valid"] else "accepted-invalid"
        record["status"] = "pass"
        record["message"] = (f"accepted: shape, dtype and elements agree (checksum "
                             f"{offered['checksum']}); the deleter ran once"
                             if view is not None else
                             f"accepted; not read back: {unread}; the deleter ran once")
    elif isinstance(raised, BufferError):
        record["outcome"] = "declined"
        record["status"] = "not_supported" if cell["valid"] else "pass"
        record["message"] = f"declined with {describe_exception(raised)}; the deleter ran once"
    else:
        record["outcome"] = "refused"
        record["status"] = "pass"
        record["message"] = f"refused with {describe_exception(raised)}; the deleter ran once"
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record
