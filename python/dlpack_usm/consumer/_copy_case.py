"""The copy oracle of a consumer: from_dlpack(x, copy=True) "must always
copy", from_dlpack(x, copy=False) "must never copy" (array API standard
2024.12, from_dlpack). The tool's offered producer hands the plainest cell
on one memory; what the consumer asked __dlpack__ for and whether it let the
producer's tensor go while its result lived tell a copy from a view:

  asked copy=True, or released the tensor early   the consumer copied
  neither                                         its result views the
                                                  producer's memory

A decline is never a failure (TypeError: from_dlpack takes no copy
keyword)."""

import time

from .._bridge.errors import describe_exception
from ..rules import finding
from . import _offers
from ._case import REFERENCE_CELL, _call, _release
from ._offered_producer import OfferedProducer

EXPECTED = {True: "a copy: __dlpack__(copy=True) asked, or the producer's tensor released "
                  "while the result lives",
            False: "a view of the producer's memory (no copy=True asked, the tensor kept), "
                   "or BufferError"}


def _observe(consumer, copy, memory, device_id):
    """(asked_copy, released_early, raised, imported): what the consumer did."""
    producer = OfferedProducer(REFERENCE_CELL, memory, device_id)
    result, raised = _call(lambda offered: consumer(offered, copy=copy), producer)
    asked = any(call.get("copy") is True for call in producer.calls
                if call["method"] == "__dlpack__")
    early = any(_offers.state(info["handle"])["deleter_calls"] > 0 for info in producer.offers)
    imported = bool(producer.offers)
    holder = [result]
    result = None
    _release(producer, holder)
    return asked, early, raised, imported


def _verdict(copy, asked, early, raised, imported):
    """(findings, status, outcome, message)."""
    if raised is not None:
        why = describe_exception(raised)
        return [], "not_supported", "declined", f"declined: {why}"
    if not imported:
        return [], "not_supported", "declined", "returned without calling __dlpack__"
    copied = asked or early
    what = ("asked __dlpack__(copy=True)" if asked else
            "released the producer's tensor while its result lived" if early else
            "kept the producer's tensor: its result is a view")
    if copy and not copied:
        return [finding("DLP-PY-CONSUMER-COPY-SHARED", "from_dlpack",
                        f"from_dlpack(x, copy=True) {what}")], "fail", "wrong", what
    if copy is False and copied:
        return [finding("DLP-PY-CONSUMER-NO-COPY-COPIED", "from_dlpack",
                        f"from_dlpack(x, copy=False) {what}")], "fail", "wrong", what
    return [], "pass", "accepted", what


def run_copy_case(consumer, spec):
    """The judged record of one copy case: spec {"copy", "memory", "device_id"}."""
    started = time.monotonic()
    copy = spec["copy"]
    asked, early, raised, imported = _observe(consumer, copy, spec["memory"],
                                              spec.get("device_id", 0))
    found, status, outcome, message = _verdict(copy, asked, early, raised, imported)
    record = dict(spec)
    record.update({"calls": [], "notes": [f"copy oracle: expected {EXPECTED[copy]}; "
                                          f"answered: {message}"],
                   "observation": {"cell": f"copy={copy}", "valid": True,
                                   "action": "declined" if outcome == "declined" else "accepted"},
                   "outcome": outcome, "status": status, "message": message,
                   "findings": [item.to_json() for item in found],
                   "decline_reason": message if outcome == "declined" else "",
                   "exception_type": type(raised).__name__ if raised is not None else ""})
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record

