"""The Python protocol's rules have one home, the tool's catalog (family
"python" of `dlpack-usm rules`): the package reads them through the bridge,
so what it reports, what the command line lists and what the manual says
agree. The catalog's own tests (tests/unit/rules/rules_catalog_test.cpp) hold
every rule to its source; tests/tools/check_rule_quotes.py checks that each
quote occurs in the source it names."""

import json
import os
import pathlib
import subprocess

from dlpack_usm import rules


def test_the_package_reads_the_tool_catalog():
    listed = json.loads(subprocess.run(
        [os.environ["DLPACK_USM_BINARY"], "rules", "--json", "--family", "python"],
        check=True, capture_output=True, text=True).stdout)["rules"]
    assert [rule.id for rule in rules.catalog()] == [entry["rule_id"] for entry in listed]
    for rule, entry in zip(rules.catalog(), listed):
        assert (rule.severity, rule.normative, rule.quote) == \
            (entry["severity"], entry["normative"], entry["quote"])


def test_every_python_rule_is_named_for_its_family():
    assert len(rules.catalog()) > 25
    assert all(rule.id.startswith("DLP-PY-") and rule.family == "python"
               for rule in rules.catalog())
    assert rules.find_rule("DLP-STRIDES-NULL").family == "shape"


def test_a_finding_takes_the_catalog_severity():
    rule = rules.find_rule("DLP-PY-CAPSULE-NAME")
    assert rules.finding(rule.id, "__dlpack__", "x").severity == rule.severity


def test_the_man_page_table_matches_the_catalog():
    page = pathlib.Path(__file__).resolve().parents[2] / "man" / "dlpack-usm-python.7"
    rows = {}
    for line in page.read_text().splitlines():
        if line.startswith("DLP\\-PY"):
            rule_id, severity, normative, _ = line.replace("\\-", "-").split("\t")
            rows[rule_id] = (severity, normative)
    assert rows == {rule.id: (rule.severity, rule.normative) for rule in rules.catalog()}
