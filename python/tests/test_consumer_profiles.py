"""The consumer profiles committed under fixtures/consumer_profiles (reports
of `python3 -m dlpack_usm consume`, from this machine and the GPU machine)
keep the report's shape: one profile entry per judged case (not the cases
that were not applicable), with the axes, classes and statuses the manual
lists, and each case's verdict is the one the tool's consumer model gives
its observation today."""

import glob
import json
import os

import pytest

from conftest import require

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
PROFILES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "consumer_profiles", "*.json")))
AXES = {"dtype", "layout", "usm-kind", "version", "invalid", "memory", "stream"}
OUTCOMES = {"accepted", "declined", "wrong", "accepted-invalid", "crash", "hang",
            "deleter-misuse", "refused"}


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_has_the_report_shape(path):
    with open(path, encoding="utf-8") as file:
        report = json.load(file)
    assert report["schema"] == "dlpack-usm.consume-report/2"
    assert len(report["results"]) == report["summary"]["cases"]
    judged = [result for result in report["results"] if result["status"] != "not_applicable"]
    assert len(report["profile"]) == len(judged)
    for entry, result in zip(report["profile"], judged):
        assert set(entry) == {"device", "axis", "value", "outcome", "status", "reason",
                              "exception", "case"}
        assert entry["axis"] in AXES and entry["outcome"] in OUTCOMES
        assert entry["case"] == result["id"] and entry["outcome"] == result["outcome"]
        assert entry["status"] == result["status"]


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_is_judged_as_the_tool_judges_today(path):
    # The profiles keep what each consumer did (the observation); a change of
    # the verdict model shows here until they are regenerated.
    from dlpack_usm._bridge import library as bridge
    with open(path, encoding="utf-8") as file:
        report = json.load(file)
    for result in report["results"]:
        if result["axis"] == "stream":
            continue  # judged by the stream check (consumer/_cuda_stream.py), not the model
        verdict = bridge.consumer_verdict(result["observation"])
        assert (verdict["outcome"], verdict["status"]) == (result["outcome"], result["status"]), \
            result["id"]


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


def test_python_offers_the_cases_check_consumer_offers():
    # One definition of the matrix: the USM cases of `dlpack-usm check
    # --consumer LIB --list` are the USM cases of consume, id for id.
    import subprocess
    binary = os.environ.get("DLPACK_USM_BINARY")
    if not binary:
        pytest.skip("DLPACK_USM_BINARY is not set (ctest sets it to the built dlpack-usm)")
    from dlpack_usm._bridge.child import in_child
    from dlpack_usm.consumer import _offers, _plan
    library = os.path.join(os.path.dirname(binary), "tests", "fixture-plugins",
                           "libfixture_consumer.so")
    listed = subprocess.run([binary, "check", "--consumer", library, "--list"],
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    matrix = in_child(_offers.matrix)
    devices = [device["name"] for device in matrix["devices"]]
    if not devices:
        pytest.skip("no USM device here")
    python_ids = {spec["id"] for spec in _plan.cases(matrix, set(devices))}
    command_ids = {line for line in listed.stdout.split()
                   if any(line.startswith(f"consumer/{name}/") for name in devices)}
    assert python_ids == command_ids
