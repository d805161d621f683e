"""The consumer profiles committed under fixtures/consumer_profiles (reports
of `python3 -m dlpack_usm consume`, from this machine and the GPU machine)
keep the report's shape: one profile entry per judged case (not the cases
that were not applicable), with the axes, classes and statuses the manual
lists, and each case's verdict is the one the tool's consumer model gives
its observation today."""

import glob
import json
import os
import subprocess
import sys

import pytest

from conftest import package_environment, require

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


def test_python_offers_the_cases_check_consumer_offers():
    # One definition of the matrix: on each USM device a Python consumer is
    # offered cells on, the cases of `dlpack-usm check --python-consumer
    # EXPR --list` are those of `dlpack-usm check --consumer LIB --list`, id
    # for id (less the label of the EXPR).
    require("numpy")
    from dlpack_usm import _frontend
    binary = _frontend.binary()

    def listed(*arguments):
        result = subprocess.run([binary, "check", *arguments, "--list"], capture_output=True,
                                text=True, env=package_environment(), timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    python_ids = {line.split("/", 1)[1]
                  for line in listed("--python-consumer", "numpy.from_dlpack", "--python",
                                     sys.executable)}
    devices = {case_id.split("/")[1] for case_id in python_ids
               if case_id.startswith("consumer/")
               and case_id.split("/")[2] in ("device", "host", "shared")}
    if not devices:
        pytest.skip("no USM device here")
    library = os.path.join(os.path.dirname(binary), "tests", "fixture-plugins",
                           "libfixture_consumer.so")
    command_ids = {line for line in listed("--consumer", library)
                   if line.split("/")[0] == "consumer" and line.split("/")[1] in devices}
    # from_dlpack's copy keyword and __dlpack__'s stream handshake (a CUDA
    # device's) are Python's alone: their cases have no C twin.
    assert {case_id for case_id in python_ids if case_id.split("/")[1] in devices
            and case_id.split("/")[2] != "copy"
            and case_id.split("/")[-1] != "stream"} == command_ids
