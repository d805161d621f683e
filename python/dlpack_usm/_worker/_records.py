"""The record a worker sends for one case (worker_protocol.hpp): its id,
outcome, message and findings (rule ids and messages: the runner weighs
them by the catalog), with the exchange as the matrix shows it, a decline's
reason and exception, what a producer emitted, and what was observed."""

# The statuses of the consumer verdict and of a profile's answers, as the
# runner's outcomes spell them: what cannot be offered or made here is not
# supported here.
_OUTCOMES = {"pass": "pass", "warn": "warn", "fail": "fail", "not_supported": "not_supported",
             "not_applicable": "not_supported"}


def outcome_of_status(status):
    return _OUTCOMES[status]


def findings_of(found):
    """[{"rule_id", "message"}] of findings given as dicts or Finding objects."""
    entries = []
    for item in found:
        item = item if isinstance(item, dict) else item.to_json()
        field = item.get("field") or ""
        message = f"{field}: {item['message']}" if field else item["message"]
        entries.append({"rule_id": item["rule_id"], "message": message})
    return entries


def record(case, outcome, message, findings=(), **fields):
    return {"id": case["id"], "outcome": outcome, "message": message,
            "findings": findings_of(findings), **fields}
