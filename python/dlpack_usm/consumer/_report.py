"""What a consumer check found, in the command line's three forms: a report
(JSON, with every case and the capability profile), a text table people
read at a glance, and JUnit with one testcase per matrix cell."""

import json
import re
import shlex
import sys
from xml.etree import ElementTree

from .._bridge import library
from .._envelope import CONSUME_SCHEMA, envelope

OUTCOMES = ("accepted", "declined", "wrong", "accepted-invalid", "crash", "hang",
            "deleter-misuse", "refused")
AXES = ("memory", "usm-kind", "version", "dtype", "layout", "invalid", "stream")


STATUSES = ("pass", "warn", "fail", "not_supported", "not_applicable", "not_run")


def interrupted_by(results):
    """The stop signal that left cases not run (SIGTERM, ...), or None."""
    return next((result["interrupted_by"] for result in results
                 if result["status"] == "not_run" and "interrupted_by" in result), None)


def stop_reasons(results):
    """Why a limit (--max-failures) turned cases away, each reason once."""
    reasons = []
    for result in results:
        reason = result.get("stop_reason")
        if result["status"] == "not_run" and reason and reason not in reasons:
            reasons.append(reason)
    return reasons


def profile(results):
    """One entry per case that was judged: which device, axis and value, what
    became of it, its status and a decline's reason and exception."""
    return [{"device": result["device"], "axis": result["axis"], "value": result["value"],
             "outcome": result["outcome"], "status": result["status"],
             "reason": result.get("decline_reason", ""),
             "exception": result.get("exception_type", ""), "case": result["id"]}
            for result in results if result["outcome"] is not None]


def streams(results):
    """What the consumer passed as __dlpack__'s stream, per device and memory
    kind, in the order first seen: [{"device", "memory", "passed": [value,
    ...]}], a value as the producer object recorded it (None, an integer, or
    "<module.Type>" for an object such as a dpctl.SyclQueue)."""
    seen = {}
    for result in results:
        for call in result.get("calls", []):
            if call["method"] != "__dlpack__":
                continue
            passed = seen.setdefault((result["device"], result["memory"]), [])
            if call.get("stream") not in passed:
                passed.append(call.get("stream"))
    return [{"device": device, "memory": memory, "passed": passed}
            for (device, memory), passed in seen.items()]


def stream_lines(entries):
    """A line per device and memory kind: the streams the consumer passed
    to __dlpack__ (the entries of streams())."""
    return [f"  {entry['device']:<16} {entry['memory']:<7} {'stream':<9} passed " +
            ", ".join(repr(value) for value in entry["passed"]) for entry in entries]


def summary(results):
    counts = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    return {"cases": len(results), **{status: counts.get(status, 0) for status in STATUSES},
            "interrupted": interrupted_by(results) is not None,
            "stop_reasons": stop_reasons(results)}


def report_json(header, results):
    """The report document (--report FILE)."""
    return {**envelope(CONSUME_SCHEMA), **header, "summary": summary(results), "results": results,
            "profile": profile(results), "streams": streams(results)}


def text(consumer, results, classes, strict=False, detail="grouped", required=(),
         duration_ms=0):
    """The table: one row per device and axis, one mark per value (the
    legend the bridge gives, the one `check --consumer` prints), the totals,
    then what `check` ends with, written by its own code through the bridge:
    the verdicts, the cases that are not ok grouped (or each one with
    detail "every_case"), the warnings and the gate line. Detail "quiet":
    the gate line alone."""
    ending = library.run_summary({
        "cases": [_summary_case(consumer, result, required) for result in results],
        "strict": strict, "duration_ms": duration_ms, "detail": detail,
        "stop_reasons": stop_reasons(results)})["text"]
    if detail == "quiet":
        return ending.rstrip("\n")
    symbols = {entry["name"]: entry["symbol"] for entry in classes}
    lines = [f"consumer {consumer}"]
    asked = []
    for result in results:
        for call in result.get("calls", []):
            if call["method"] == "__dlpack__":
                text_call = ", ".join(f"{key}={value!r}" for key, value in call.items()
                                      if key != "method")
                if text_call not in asked:
                    asked.append(text_call)
    for text_call in asked:
        lines.append(f"  asked: __dlpack__({text_call})")
    rows = {}
    for result in results:
        key = (result["device"], result["memory"], result["axis"])
        mark = "?" if result["status"] == "not_run" else symbols.get(result["outcome"], ".")
        rows.setdefault(key, []).append(f"{result['value']}{mark}")
    for (device, memory, axis), marks in rows.items():
        lines.append(f"  {device:<16} {memory:<7} {axis:<9} {' '.join(marks)}")
    lines += stream_lines(streams(results))
    lines.append("  (" + ", ".join(f"{entry['symbol']} {entry['meaning']}" for entry in classes) +
                 ", . not applicable" +
                 (", ? not run)" if interrupted_by(results) else ")"))
    tally = summary(results)
    lines.append(f"{tally['cases']} cases: {tally['pass']} passed, {tally['warn']} warned, "
                 f"{tally['fail']} failed, {tally['not_supported']} declined, "
                 f"{tally['not_applicable']} not applicable" +
                 (f", {tally['not_run']} not run" if tally["not_run"] else ""))
    return "\n".join(lines) + "\n\n" + ending.rstrip("\n")


# A status of a consume case as the outcome `check` gives such a case: a
# crash and a hang keep their names, a cell that cannot be tested here is
# not supported, as check's cells on such a device are.
_CRASH_OUTCOMES = {"crash": "crash", "hang": "timeout"}


def _check_outcome(result):
    status = result["status"]
    if status == "fail":
        return _CRASH_OUTCOMES.get(result["outcome"], "fail")
    return "not_supported" if status == "not_applicable" else status


def repro(consumer, result, required=()):
    """The command that offers the case's cell again, on its device only,
    with this interpreter (the one whose site has the consumer's library)."""
    words = [sys.executable or "python3", "-m", "dlpack_usm", "consume", consumer, "--device",
             result["device"], "--cell", result["cell"]["name"]]
    for feature in sorted(set(required) & set(result.get("features", []))):
        words += ["--require", feature]
    return " ".join(shlex.quote(word) for word in words)


def _summary_case(consumer, result, required):
    """A case as dlpack_usm_bridge_run_summary takes it (bridge.h)."""
    message = result["message"]
    if result.get("outcome"):
        message = f"{result['outcome']}: {message}"
    return {"id": result["id"], "outcome": _check_outcome(result), "message": message,
            "findings": result.get("findings", []), "repro": repro(consumer, result, required),
            "duration_ms": result.get("duration_ms", 0)}


def failing_statuses(strict):
    """The statuses that fail the gate: an unfinished case always does."""
    return ("fail", "not_run", "warn") if strict else ("fail", "not_run")


# Characters XML 1.0 cannot carry (control characters, lone surrogates of
# undecodable bytes) become U+FFFD, as the C++ XML writer does.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text):
    return _NOT_XML.sub("\ufffd", str(text))


def _element(parent, tag, text=None, **attributes):
    """A child of `parent`; every attribute value and text goes through
    _xml_text, in this one place."""
    child = ElementTree.SubElement(parent, tag, {key.rstrip("_"): _xml_text(value)
                                                  for key, value in attributes.items()})
    if text is not None:
        child.text = _xml_text(text)
    return child


def _testcase(suite, result, failing):
    case = _element(suite, "testcase", classname=result["device"] + "." + result["axis"],
                    name=result["id"], time=f"{result.get('duration_ms', 0) / 1000:.3f}")
    message = f"{result['outcome'] or 'not applicable'}: {result['message']}"
    if result["status"] == "not_run":
        _element(case, "error", message=result["message"], type="not_run")
    elif result["status"] in failing:
        _element(case, "failure", json.dumps(result.get("findings", [])), message=message,
                 type=result["outcome"])
    elif result["status"] in ("not_supported", "not_applicable"):
        _element(case, "skipped", message=message)
    elif result["status"] == "warn":
        properties = _element(case, "properties")
        _element(properties, "property", name="outcome", value="warn")
        _element(case, "system-out", "warning: " + result["message"])


def junit(consumer, results, strict=False):
    """JUnit XML: one testcase per case (a cell on a device and memory kind);
    a warning is a passed testcase that says so (a failure with --strict).
    Written through ElementTree: it escapes, this module never does."""
    tally = summary(results)
    failing = ("fail", "warn") if strict else ("fail",)
    failures = sum(tally[status] for status in failing)
    counts = {"tests": tally["cases"], "failures": failures, "errors": tally["not_run"]}
    root = ElementTree.Element("testsuites", {"name": "dlpack-usm consume",
                                              **{k: str(v) for k, v in counts.items()}})
    suite = _element(root, "testsuite", name="consume " + consumer, **counts,
                     skipped=tally["not_supported"] + tally["not_applicable"])
    for result in results:
        _testcase(suite, result, failing)
    ElementTree.indent(root, space="  ")
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
