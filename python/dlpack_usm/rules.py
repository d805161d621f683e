"""The rules of the DLPack Python protocol, as the tool's one catalog holds
them (family "python" of `dlpack-usm rules`): checks of __dlpack__,
__dlpack_device__, capsule names and ownership, __sycl_usm_array_interface__,
__dlpack_c_exchange_api__ and of a consumer's declines, which no C struct can
show. The catalog lives in the C++ core (src/rules/python_rules.cpp) and is
read through the bridge, so that an id, a severity or a quoted sentence has
one home; this module only gives it Python's shape."""

import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class PythonRule:
    id: str
    title: str
    severity: str  # "error", "warning", "info"
    since: str  # the first DLPack release where it applies
    reference: str
    normative: str  # the word the quote rests on, "definition", "convention" or "heuristic"
    quote: str
    rationale: str
    family: str = "python"


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: str
    field: str
    message: str

    def to_json(self):
        return {"rule_id": self.rule_id, "severity": self.severity, "field": self.field,
                "message": self.message}


@functools.lru_cache(maxsize=None)
def _all_rules():
    """Every rule of the catalog, by id (read once per process)."""
    from ._bridge.library import rules_catalog
    return {entry["rule_id"]: PythonRule(
        entry["rule_id"], entry["title"], entry["severity"], entry["since"], entry["reference"],
        entry["normative"], entry["quote"], entry["rationale"], entry["family"])
        for entry in rules_catalog()["rules"]}


def catalog(family="python"):
    """The rules of `family` (every family for None), in catalog order."""
    return tuple(rule for rule in _all_rules().values()
                 if family is None or rule.family == family)


def find_rule(rule_id):
    """The rule `rule_id` of any family, or None."""
    return _all_rules().get(rule_id)


def finding(rule_id, field, message):
    """A finding of rule `rule_id` at the catalog's severity."""
    rule = find_rule(rule_id)
    if rule is None:
        raise KeyError(f"{rule_id} is not in the tool's rule catalog")
    return Finding(rule_id, rule.severity, field, message)


def __getattr__(name):
    # CATALOG is the Python family, read when first used: importing the
    # package must not need the library yet.
    if name == "CATALOG":
        return catalog()
    raise AttributeError(name)
