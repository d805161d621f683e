"""The cases a Python worker runs, by their kind (the case spec's "kind",
planned in src/suite/cases/python): each calls into the library, observes
what it does, and gives the record of worker_protocol.hpp: outcome,
message, findings (rule ids; the runner weighs them by the catalog), the
exchange as the matrix shows it, and what was observed as evidence."""

import time

from .._bridge.errors import BridgeError, describe_exception
from ..consumer import _case, _copy_case, _cuda_stream
from . import _handoff, _producer_steps, _profile_answers
from ._records import outcome_of_status, record

EVIDENCE = ("calls", "notes", "offers", "capsule_names_after", "deleter_calls_before_result_died",
            "deleter_calls", "raised", "result", "observation")


def judged_record(case, judged):
    """The record of a case the consumer verdict judged (consumer._case)."""
    return record(case, outcome_of_status(judged["status"]), judged["message"],
                  judged["findings"], exchange=judged["outcome"] or "not-applicable",
                  decline_reason=judged.get("decline_reason") or "",
                  exception=judged.get("exception_type") or "",
                  evidence={key: judged[key] for key in EVIDENCE if key in judged})


def _consume(target, case):
    spec = {"cell": _case.matrix_cell(case["cell"]), "memory": case["memory"],
            "device_id": case["device_id"], "features": []}
    return judged_record(case, _case.run_case(target.from_dlpack(), spec))


def _stream(target, case):
    return judged_record(case, _cuda_stream.run_stream_case(target.from_dlpack(),
                                                            {"device_id": case["device_id"]}))


def _copy(target, case):
    return judged_record(case, _copy_case.run_copy_case(target.from_dlpack(), {
        "copy": case["copy"], "memory": case["memory"], "device_id": case["device_id"]}))


def _not_supported(target, case):
    return {"id": case["id"], "outcome": "not_supported", "message": case["reason"],
            "rule_ids": case.get("rule_ids", []), "findings": []}


KINDS = {"consume": _consume, "stream": _stream, "copy": _copy, "not_supported": _not_supported,
         "produce": _profile_answers.answer, "step": _producer_steps.run_step,
         "handoff": _handoff.run}


def run_case(target, case):
    """The record of `case`; a failure of the tool's own code is the case's
    error (its outcome "error"), and the worker goes on with the next."""
    started = time.monotonic()
    try:
        found = KINDS[case["kind"]](target, case)
    except BridgeError as error:
        found = record(case, "error", f"{error.message} ({error.hint})" if error.hint
                       else error.message)
    except Exception as error:  # noqa: BLE001 - the tool's own bug, charged to this case only
        found = record(case, "error", "internal error of the Python worker: "
                                      f"{describe_exception(error)}; this is a bug of dlpack_usm")
    found["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return found
