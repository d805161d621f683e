"""What a profile found, in the command line's forms: the profile report
(JSON, schema dlpack-usm.profile-report/2: both directions, each with its
cases and its profile entries, one per cell of the compatibility matrix)
and a short text: per direction a table of outcomes by axis, then the
failures grouped by rule."""

import json

from ..consumer import _report as consumer_report
from . import _cells, _judge, _requests
from ._run import CUDA_MEMORY

PRODUCER_OUTCOMES = ("emitted", "emitted-invalid", "wrong", "refused", "not-applicable",
                     "crash", "hang")
ARRAY_AXES = ("layout", "dtype", "ndim", "size0", "read-only")
REQUEST_AXES = ("max_version", "dl_device", "copy", "stream")
# The consumer's memory kinds (the bridge's USM kinds), as entries name them.
CONSUMER_MEMORY = {"cpu": "cpu", "host": "host-usm", "device": "device-usm",
                   "shared": "shared-usm"}


def _consumer_memory(result):
    """The memory of a consumer case as the profile names it: the stream
    case of a CUDA device offers CUDA device memory, not USM."""
    names = CUDA_MEMORY if result["device"].startswith("cuda") else CONSUMER_MEMORY
    return names.get(result["memory"], result["memory"])


def _worst_finding(findings):
    """The first error, else the first warning; None where there is neither."""
    for severity in ("error", "warning"):
        for item in findings:
            if item["severity"] == severity:
                return item
    return None


def _entry(record, axis, value, memory, repro):
    worst = _worst_finding(record["findings"])
    entry = {"direction": "producer", "device": record["device"], "memory": memory,
             "axis": axis, "value": value, "outcome": record["outcome"],
             "status": record["status"], "reason": record["reason"],
             "exception": record["exception"], "case": record["id"]}
    if worst is not None:
        entry.update(rule=worst["rule_id"], message=worst["message"])
    emitted = _judge.summary_text(record)
    if emitted:
        entry["emitted"] = emitted
    entry["repro"] = repro
    return entry


def _verdict(record):
    return None if record is None else (record["outcome"], record["status"])


def _places(record, answers):
    """The (axis, value) of a case's entries: the base request's answer
    stands for its cell, the reference array's answers for their requests
    (its answer to the base request for both: layout c-order, max_version
    1.3); another cell's answer to a request is an entry of its own ("None
    on read-only") only where it differs both from the reference array's
    answer to that request and from the cell's own base answer (a refusal
    the request causes on that cell, not one of the cell's)."""
    request = record["request"]
    places = []
    if request["id"] == _requests.BASE.id:
        places.append((record["axis"], record["value"]))
    if record["cell"] == _cells.REFERENCE:
        return places + [(request["axis"], request["value"])]
    verdict = _verdict(record)
    expected = {_verdict(answers.get((record["device"], _cells.REFERENCE, request["id"]))),
                _verdict(answers.get((record["device"], record["cell"], _requests.BASE.id)))}
    if request["id"] != _requests.BASE.id and record["outcome"] != "not-applicable" and \
            verdict not in expected:
        places.append((request["axis"], f"{request['value']} on {record['cell']}"))
    return places


def producer_profile(results, module):
    """The producer's entries (_places says which cases have one)."""
    judged = [record for record in results if record["outcome"] is not None]
    memory, answers = {}, {}
    for record in judged:
        if record["memory"]:
            memory.setdefault(record["device"], record["memory"])
        answers[(record["device"], record["cell"], record["request"]["id"])] = record
    entries = []
    for record in judged:
        repro = (f"python3 -m dlpack_usm profile {module} --producer-only "
                 f"--device {record['device']} --cell {record['cell']}")
        entries += [_entry(record, *place, memory.get(record["device"]), repro)
                    for place in _places(record, answers)]
    return entries


def consumer_profile(found, module):
    """The consumer's entries (consume's profile), each with its direction,
    memory, worst finding and a command that repeats it."""
    results = {result["id"]: result for result in found.results}
    entries = []
    for entry in found.profile:
        result = results[entry["case"]]
        worst = _worst_finding(result.get("findings") or [])
        entries.append({"direction": "consumer", **entry,
                        "memory": _consumer_memory(result),
                        **({"rule": worst["rule_id"], "message": worst["message"]}
                           if worst else {"message": result.get("message", "")}),
                        "repro": f"python3 -m dlpack_usm consume {module}.from_dlpack "
                                 f"--device {result['device']} --cell {result['cell']['name']}"})
    return entries


def interrupted(results):
    """Whether a stop signal left cases not run."""
    return consumer_report.interrupted_by(results) is not None


def summary(results):
    """Cases by status (as consume counts them) and by outcome."""
    tally = consumer_report.summary(results)
    outcomes = {}
    for record in results:
        if record["outcome"] is not None:
            outcomes[record["outcome"]] = outcomes.get(record["outcome"], 0) + 1
    return dict(tally, outcomes=outcomes)


def _table(entries, axes, outcomes):
    """Rows "axis  count count ...": profile entries by axis and outcome."""
    columns = [outcome for outcome in outcomes if any(entry["outcome"] == outcome
                                                     for entry in entries)]
    if not columns:
        return []
    width = max(len(axis) for axis in axes)
    lines = ["  " + "axis".ljust(width) + "  " + "  ".join(columns)]
    for axis in axes:
        counts = [sum(1 for entry in entries if entry["axis"] == axis and
                      entry["outcome"] == outcome) for outcome in columns]
        if any(counts):
            lines.append("  " + axis.ljust(width) + "  " + "  ".join(
                str(count or ".").rjust(len(column)) for count, column in zip(counts, columns)))
    return lines


def failures(results):
    """Failing and warning cases grouped by rule: "FAIL RULE (N): message;
    cases: ..." with the first case's message, worst first."""
    groups = {}
    for record in results:
        if record["status"] not in ("fail", "warn"):
            continue
        worst = _worst_finding(record.get("findings") or [])
        key = (record["status"], worst["rule_id"] if worst else record["outcome"])
        groups.setdefault(key, []).append((record, worst))
    lines = []
    for status in ("fail", "warn"):
        for (group_status, rule), members in groups.items():
            if group_status != status:
                continue
            record, worst = members[0]
            message = worst["message"] if worst else record.get("message", "")
            message = message.removeprefix(f"rule {rule}: ")  # consume's messages name it
            cases = ", ".join(member["id"] for member, _ in members[:3]) + \
                (f" and {len(members) - 3} more" if len(members) > 3 else "")
            lines.append(f"{status.upper()} {rule} ({len(members)}): {message}")
            lines.append(f"    cases: {cases}")
    return lines


def _summary_line(tally):
    return (f"{tally['cases']} cases: {tally['pass']} passed, {tally['warn']} warned, "
            f"{tally['fail']} failed, {tally['not_supported']} declined, "
            f"{tally['not_applicable']} not applicable" +
            (f", {tally['not_run']} not run" if tally["not_run"] else ""))


def text(document):
    """The text a person reads: per direction, its table and failures."""
    library = document["library"]
    lines = [f"profile {library['name']} {library['version']} ({library['module']})"]
    producer = document.get("producer")
    if producer is not None:
        devices = sorted({entry["device"] for entry in producer["profile"]})
        lines.append(f"producer: __dlpack__ on {', '.join(devices) or 'no device'}")
        lines += [f"  not profiled: {device['library_device']}: no array could be made there "
                  f"({device['error']})" for device in producer["devices"] if device["error"]]
        lines += _table(producer["profile"], ARRAY_AXES + REQUEST_AXES, PRODUCER_OUTCOMES)
        lines += failures(producer["results"])
        lines.append("producer: " + _summary_line(producer["summary"]))
    consumer = document.get("consumer")
    if consumer is not None:
        lines.append(f"consumer: {consumer['consumer']}")
        lines += _table(consumer["profile"], consumer_report.AXES, consumer_report.OUTCOMES)
        if consumer.get("streams"):
            lines.append("consumer: the stream it passed to __dlpack__, per device and memory")
            lines += consumer_report.stream_lines(consumer["streams"])
        lines += failures(consumer["results"])
        lines.append("consumer: " + _summary_line(consumer["summary"]))
    results = [result for direction in (producer, consumer) if direction is not None
               for result in direction["results"]]
    lines.append(gate_line(results))
    return "\n".join(lines)


def gate_line(results):
    """The profile's last line: FAILED where a case of either direction
    fails or did not run (a stop signal names itself), as consume's gate
    decides without --strict."""
    failed = any(result["status"] in consumer_report.failing_statuses(strict=False)
                 for result in results)
    stopped = consumer_report.interrupted_by(results)
    return f"gate: {'FAILED' if failed else 'PASSED'}" + \
        (f" (interrupted by {stopped})" if stopped else "")


def _lines(value, indent):
    """`value` as JSON indented by `indent`, where each item of a list of
    cases or entries ("results", "profile") is written on a line of its own:
    a report of thousands of cases stays small, and a regenerated one
    differs line by line where its cases differ."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        items = [f'{pad}  {json.dumps(key)}: ' +
                 (_list_of_lines(item, indent + 2) if key in ("results", "profile")
                  else _lines(item, indent + 2).lstrip())
                 for key, item in value.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return pad + json.dumps(value)


def _list_of_lines(items, indent):
    if not isinstance(items, list) or not items:
        return json.dumps(items)
    pad = " " * indent
    return "[\n" + ",\n".join(f"{pad}  {json.dumps(item)}" for item in items) + \
        "\n" + pad + "]"


def report_text(document):
    """The report as --report writes it."""
    return _lines(document, 0) + "\n"
