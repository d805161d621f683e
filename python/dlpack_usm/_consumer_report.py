"""What a consumer check found, in the command line's three forms: a report
(JSON, with every case and the capability profile), a text table people
read at a glance, and JUnit with one testcase per matrix cell."""

import json
from xml.sax.saxutils import escape, quoteattr

SCHEMA = "dlpack-usm.consume-report/1"
OUTCOMES = ("accepted", "declined", "wrong", "accepted-invalid", "crash", "hang",
            "deleter-misuse", "refused")
AXES = ("memory", "usm-kind", "version", "dtype", "layout", "invalid")


def profile(results):
    """One entry per case: which device, axis and value, and what became of it."""
    return [{"device": result["device"], "axis": result["axis"], "value": result["value"],
             "outcome": result["outcome"], "case": result["id"]} for result in results]


def summary(results):
    counts = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    return {"cases": len(results), **{status: counts.get(status, 0) for status in
                                      ("pass", "fail", "not_supported", "not_applicable")}}


def report_json(header, results):
    """The report document (--report FILE)."""
    return {"schema": SCHEMA, **header, "summary": summary(results), "results": results,
            "profile": profile(results)}


def _letter(outcome):
    return {"accepted": "+", "declined": "-", "refused": "r", "wrong": "W",
            "accepted-invalid": "I", "crash": "C", "hang": "H", "deleter-misuse": "D"}[outcome]


def text(consumer, results):
    """The table: one row per device and axis, one mark per value, then the
    failing cases with their messages and the totals."""
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
        rows.setdefault(key, []).append(f"{result['value']}{_letter(result['outcome'])}")
    for (device, memory, axis), marks in rows.items():
        lines.append(f"  {device:<16} {memory:<7} {axis:<9} {' '.join(marks)}")
    lines.append("  (+ accepted, - declined with BufferError, r refused, W wrong, "
                 "I accepted an invalid tensor, C crash, H hang, D deleter misuse)")
    failing = [result for result in results if result["status"] == "fail"]
    for result in failing:
        lines.append(f"FAIL {result['id']}: {result['outcome']}: {result['message']}")
    tally = summary(results)
    lines.append(f"{tally['cases']} cases: {tally['pass']} passed, {tally['fail']} failed, "
                 f"{tally['not_supported']} declined (not supported), "
                 f"{tally['not_applicable']} not applicable")
    return "\n".join(lines)


def junit(consumer, results):
    """JUnit XML: one testcase per case (a cell on a device and memory kind)."""
    tally = summary(results)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="dlpack-usm consume" tests="{tally["cases"]}" '
           f'failures="{tally["fail"]}">',
           f'  <testsuite name={quoteattr("consume " + consumer)} tests="{tally["cases"]}" '
           f'failures="{tally["fail"]}" '
           f'skipped="{tally["not_supported"] + tally["not_applicable"]}">']
    for result in results:
        seconds = result.get("duration_ms", 0) / 1000
        head = (f'    <testcase classname={quoteattr(result["device"] + "." + result["axis"])} '
                f'name={quoteattr(result["id"])} time="{seconds:.3f}"')
        message = quoteattr(f"{result['outcome']}: {result['message']}")
        if result["status"] == "fail":
            out.append(f"{head}><failure message={message} type={quoteattr(result['outcome'])}>"
                       f"{escape(json.dumps(result.get('findings', [])))}</failure></testcase>")
        elif result["status"] in ("not_supported", "not_applicable"):
            out.append(f"{head}><skipped message={message}/></testcase>")
        else:
            out.append(f"{head}/>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"
