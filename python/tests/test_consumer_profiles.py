"""The consumer profiles committed under fixtures/consumer_profiles (reports
of `python3 -m dlpack_usm consume`, from this machine and the GPU machine)
keep the report's shape: one profile entry per case, with the axes and
outcomes the manual lists."""

import glob
import json
import os

import pytest

from conftest import require

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
PROFILES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "consumer_profiles", "*.json")))
AXES = {"dtype", "layout", "usm-kind", "version", "invalid", "memory"}
OUTCOMES = {"accepted", "declined", "wrong", "accepted-invalid", "crash", "hang",
            "deleter-misuse", "refused"}


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_has_the_report_shape(path):
    with open(path, encoding="utf-8") as file:
        report = json.load(file)
    assert report["schema"] == "dlpack-usm.consume-report/1"
    assert len(report["profile"]) == len(report["results"]) == report["summary"]["cases"]
    for entry, result in zip(report["profile"], report["results"]):
        assert set(entry) == {"device", "axis", "value", "outcome", "case"}
        assert entry["axis"] in AXES and entry["outcome"] in OUTCOMES
        assert entry["case"] == result["id"] and entry["outcome"] == result["outcome"]


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_follows_the_schema(path):
    require("jsonschema")
    import validate_outputs
    schema = os.path.join(ROOT, "conformance", "schema", "consume-report.schema.json")
    assert validate_outputs.validate_schema(schema, [path])


def test_the_python_manual_documents_every_consume_option():
    import subprocess
    import sys
    with open(os.path.join(ROOT, "man", "dlpack-usm-python.7"), encoding="utf-8") as file:
        page = file.read()
    page = page.replace("\\-", "-")
    result = subprocess.run([sys.executable, "-m", "dlpack_usm", "consume", "--help"],
                            capture_output=True, text=True, timeout=60)
    options = {word.strip(",[]") for word in result.stdout.split() if word.startswith("--")}
    assert options - {"--help"}
    for option in options - {"--help"}:
        assert option in page, option
