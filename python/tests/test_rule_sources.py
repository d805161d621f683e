"""The Python protocol rules follow their sources as the C++ catalog does: a
public reference, a quoted sentence, the normative word it rests on, and no
error unless that word is a must. (tests/tools/check_rule_quotes.py checks
that each quote occurs in the source it names.)"""

import pathlib

import pytest

from dlpack_usm.rules import CATALOG, HEURISTIC, MUST_WORDS, SHOULD_WORDS

PERMISSIVE_WORDS = ("can", "may")
SEVERITY_ORDER = ("info", "warning", "error")


def highest_severity(normative):
    if normative in MUST_WORDS:
        return "error"
    if normative in SHOULD_WORDS or normative == HEURISTIC:
        return "warning"
    assert normative in PERMISSIVE_WORDS, f"unknown normative word {normative!r}"
    return "info"


@pytest.mark.parametrize("rule", CATALOG, ids=lambda rule: rule.id)
def test_severity_follows_the_normative_word(rule):
    assert SEVERITY_ORDER.index(rule.severity) <= \
        SEVERITY_ORDER.index(highest_severity(rule.normative))
    if rule.normative != HEURISTIC:
        assert rule.normative in rule.quote.lower()


@pytest.mark.parametrize("rule", [rule for rule in CATALOG if rule.severity == "error"],
                         ids=lambda rule: rule.id)
def test_no_error_without_a_must_level_quote(rule):
    assert rule.normative in MUST_WORDS
    assert rule.normative in rule.quote.lower()


@pytest.mark.parametrize("rule", CATALOG, ids=lambda rule: rule.id)
def test_references_are_public(rule):
    # A file of this project, or one no user can open, is no reference.
    assert "seeds/" not in rule.reference and ".txt" not in rule.reference
    assert rule.reference and rule.rationale


def test_the_man_page_table_matches_the_catalog():
    page = pathlib.Path(__file__).resolve().parents[2] / "man" / "dlpack-usm-python.7"
    rows = {}
    for line in page.read_text().splitlines():
        if line.startswith("DLP\\-PY"):
            rule_id, severity, normative, _ = line.replace("\\-", "-").split("\t")
            rows[rule_id] = (severity, normative)
    assert rows == {rule.id: (rule.severity, rule.normative) for rule in CATALOG}
