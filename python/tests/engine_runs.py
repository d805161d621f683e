"""The tests' view of a run of the one engine: `python -m dlpack_usm
consume | profile | check` run as a user runs them, with the check report
read back, and each case of a library seen as its record says it: the
exchange (accepted, declined, wrong, ...), the outcome (pass, warn, fail,
not_supported, crash, timeout), the findings, and what was observed."""

import json
import os

from conftest import run_package


class Run:
    """A finished run: `result` (the process), `document` (the report), and
    the cases of the library `prefix` (the first part of every id)."""

    def __init__(self, result, document, prefix):
        self.result, self.document, self.prefix = result, document, prefix
        self.by_id = {case["id"]: case for case in document["results"]}

    @property
    def results(self):
        """Every case of the library that ran, as case() sees it."""
        return [view(case) for case in self.document["results"]
                if case["outcome"] != "skipped" and case["id"].startswith(self.prefix + "/")]

    def case(self, short_id):
        """The case `short_id` ("consumer/cpu/cpu/c-order") of the library."""
        return view(self.by_id[f"{self.prefix}/{short_id}"])

    def outcome(self, short_id):
        return self.case(short_id)["outcome"]

    @property
    def failed(self):
        return [case for case in self.results if case["verdict"] != "ok"]

    @property
    def passed(self):
        return self.result.returncode == 0

    def devices(self):
        return sorted({case["device"] for case in self.results if case["device"]})


def view(case):
    """A case as the tests read it: its evidence's fields, then the record's
    own, "outcome" being the exchange and "status" the case's outcome."""
    seen = dict(case.get("evidence") or {})
    seen.update(id=case["id"], device=case.get("device"), outcome=case.get("exchange"),
                status=case["outcome"], verdict=case["verdict"], message=case["message"],
                findings=case["findings"], decline_reason=case.get("decline_reason", ""),
                exception=case.get("exception", ""), emitted=case.get("emitted", ""),
                place=case.get("place"))
    return seen


def run(command, target, *arguments, tmp_path, prefix=None, env=None):
    """`python -m dlpack_usm COMMAND TARGET ARGUMENTS --report R`, read back."""
    report = os.path.join(str(tmp_path), f"{command}-report.json")
    result = run_package(command, target, *arguments, "--report", report, env=env)
    if not os.path.exists(report):
        raise AssertionError(f"no report: {result.stdout}{result.stderr}")
    with open(report) as text:
        document = json.load(text)
    return Run(result, document, prefix or target)
