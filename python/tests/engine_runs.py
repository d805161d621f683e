"""The tests' view of a run of the one engine: `python -m dlpack_usm
consume | profile | check` run as a user runs them (or `dlpack-usm check`
with several Python libraries at once), with the check report read back,
and each case of a library seen as its record says it: the exchange
(accepted, declined, wrong, ...), the outcome (pass, warn, fail,
not_supported, crash, timeout), the findings, and what was observed."""

import hashlib
import json
import os
import subprocess
import sys

from conftest import package_environment, run_package

# src/suite/cases/python/python_target.cpp: how a library's EXPR or MODULE
# is written as the first part of its cases' ids.
LABEL_LENGTH = 48
LABEL_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+=,():")


def label(text):
    """The label of the library `text` names, as its case ids start."""
    plain = "".join(c if c in LABEL_PLAIN else "_" for c in text)
    replaced = plain != text or len(plain) > LABEL_LENGTH
    plain = plain[:LABEL_LENGTH]
    if not replaced and plain:
        return plain
    return f"{plain}~{hashlib.sha256(text.encode()).hexdigest()[:8]}"


class Run:
    """A finished run: `result` (the process), `document` (the report), and
    the cases of the library `prefix` (the first part of every id)."""

    def __init__(self, result, document, prefix):
        self.result, self.document, self.prefix = result, document, prefix
        self.by_id = {case["id"]: case for case in document["results"]}

    def of(self, text):
        """The same run, seen through the cases of the library `text`."""
        return Run(self.result, self.document, label(text))

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

    def step(self, name):
        """The case of step `name` ("capsule", "device-agrees", ...) of a
        producer's check."""
        return self.case(f"producer/{name}")

    @property
    def findings(self):
        """Every finding of the library's cases, each with its case's id."""
        return [dict(item, case=case["id"]) for case in self.results
                for item in case["findings"]]

    def messages(self, rule_id):
        """The messages of the findings of `rule_id`."""
        return [item["message"] for item in self.findings if item["rule_id"] == rule_id]

    def fired(self, *severities):
        """The rule ids of the findings (of these severities, if named)."""
        return sorted({item["rule_id"] for item in self.findings
                       if not severities or item["severity"] in severities})

    @property
    def notes(self):
        """What the library's cases noted (a producer's steps)."""
        return [note for case in self.results for note in case.get("notes") or []]

    @property
    def capsule(self):
        """The capsule a producer's check read (its capsule step's), or None."""
        return self.step("capsule").get("capsule")

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
                place=case.get("place"), cell=case.get("cell"), repro=case.get("repro"),
                snippet=case.get("snippet"))
    return seen


def read_report(result, report, prefix):
    if not os.path.exists(report):
        raise AssertionError(f"no report: {result.stdout}{result.stderr}")
    with open(report) as text:
        document = json.load(text)
    return Run(result, document, prefix)


def run(command, target, *arguments, tmp_path, prefix=None, env=None):
    """`python -m dlpack_usm COMMAND TARGET ARGUMENTS --report R`, read back."""
    report = os.path.join(str(tmp_path), f"{command}-report.json")
    result = run_package(command, target, *arguments, "--report", report, env=env)
    return read_report(result, report, prefix or label(target))


def check(*arguments, tmp_path, env=None, timeout=600):
    """`dlpack-usm check ARGUMENTS --python THIS-INTERPRETER --report R`, as
    the front-ends run it: several Python libraries in one run, each seen
    through Run.of(its EXPR or MODULE)."""
    from dlpack_usm import _frontend
    report = os.path.join(str(tmp_path), "check-report.json")
    result = subprocess.run([_frontend.binary(), "check", "--python", sys.executable, *arguments,
                             "--report", report], capture_output=True, text=True,
                            env=package_environment(env), timeout=timeout)
    return read_report(result, report, None)
