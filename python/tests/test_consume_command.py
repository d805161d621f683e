"""python3 -m dlpack_usm consume EXPR as a user (or CI, or the lead on the GPU
machine) runs it: the table, the report with its profile, JUnit with one
testcase per cell, --require, and the exit codes of dlpack-usm (0 ok, 1 a
case failed, 2 usage, 3 environment). It needs neither dpctl (the bridge
falls back to its OpenCL runtime) nor jsonschema."""

import json
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from conftest import require

np = require("numpy")

TESTS = os.path.dirname(os.path.abspath(__file__))
PROFILE_KEYS = {"device", "axis", "value", "outcome", "status", "reason", "exception", "case"}


def run(*arguments, env=None):
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "dlpack_usm", "consume", *arguments],
                          capture_output=True, text=True, env=environment, timeout=300)


def test_a_passing_run_writes_report_and_junit(tmp_path):
    report, junit = tmp_path / "numpy.json", tmp_path / "numpy.xml"
    result = run("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order", "--cell",
                 "negative-stride", "--cell", "dtype-bool", "--report", str(report),
                 "--junit", str(junit))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "consumer numpy.from_dlpack" in result.stdout
    assert "3 cases: 3 passed, 0 warned, 0 failed" in result.stdout
    *_, gate, wrote = result.stdout.rstrip().splitlines()
    assert gate.startswith("gate: PASSED (3 cases run in "), result.stdout
    assert wrote == f"wrote: {report}, {junit}", result.stdout
    document = json.loads(report.read_text())
    assert document["schema"] == "dlpack-usm.consume-report/2"
    assert document["consumer"] == "numpy.from_dlpack"
    assert document["summary"]["cases"] == 3
    assert all(set(entry) == PROFILE_KEYS for entry in document["profile"])
    assert {(entry["axis"], entry["value"], entry["outcome"]) for entry in document["profile"]} == \
        {("memory", "cpu", "accepted"), ("layout", "negative-stride", "accepted"),
         ("dtype", "bool", "accepted")}
    require("jsonschema")
    sys.path.insert(0, os.path.join(TESTS, os.pardir, os.pardir, "tests", "tools"))
    import validate_outputs
    schema = os.path.join(TESTS, os.pardir, os.pardir, "conformance", "schema",
                          "consume-report.schema.json")
    assert validate_outputs.validate_schema(schema, [str(report)])
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    assert sorted(case.get("name") for case in cases) == sorted(
        entry["case"] for entry in document["profile"])


def test_the_report_and_the_table_say_which_stream_the_consumer_passed(tmp_path):
    report = tmp_path / "streams.json"
    result = run("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order", "--report",
                 str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(report.read_text())["streams"] == [
        {"device": "cpu", "memory": "cpu", "passed": [None]}]
    assert any(line.split() == ["cpu", "cpu", "stream", "passed", "None"]
               for line in result.stdout.splitlines()), result.stdout


def test_a_failing_case_exits_1_and_is_a_junit_failure(tmp_path):
    junit = tmp_path / "reversed.xml"
    result = run("consumers.reads_reversed", "--device", "cpu", "--cell", "c-order",
                 "--junit", str(junit))
    assert result.returncode == 1
    assert "wrong: rule DLP-CONSUMER-CHECKSUM" in result.stdout, result.stdout
    assert "case: consumer/cpu/cpu/c-order" in result.stdout, result.stdout
    *_, gate, wrote = result.stdout.rstrip().splitlines()
    assert gate.startswith("gate: FAILED (1 case run in "), result.stdout
    assert wrote == f"wrote: {junit}", result.stdout
    (case,) = ElementTree.parse(junit).getroot().iter("testcase")
    assert case.find("failure").get("type") == "wrong"


def test_a_decline_passes_and_a_warning_fails_only_under_strict(tmp_path):
    # numpy 2.4 declines bfloat16 with RuntimeError: a decline, worth knowing.
    declined = run("numpy.from_dlpack", "--device", "cpu", "--cell", "dtype-bfloat16")
    assert declined.returncode == 0, declined.stdout
    assert "1 declined" in declined.stdout
    junit = tmp_path / "warned.xml"
    cell = ("consumers.declines_odd_extent1_strides", "--device", "cpu", "--cell",
            "extent-1-strides")
    warned = run(*cell, "--junit", str(junit))
    assert warned.returncode == 0, warned.stdout + warned.stderr
    assert "\n  consumer/cpu/cpu/extent-1-strides: declined" in warned.stdout, warned.stdout
    assert "see: dlpack-usm rules DLP-CONSUMER-INCONSISTENT-DECLINE" in warned.stdout
    (case,) = ElementTree.parse(junit).getroot().iter("testcase")
    assert case.find("failure") is None and "warning" in case.find("system-out").text
    strict = run(*cell, "--strict", "--junit", str(junit))
    assert strict.returncode == 1 and "gate: FAILED (strict)" in strict.stdout
    (case,) = ElementTree.parse(junit).getroot().iter("testcase")
    assert case.find("failure") is not None


def test_alike_failures_are_one_group_that_ends_as_check_ends():
    # A consumer that reads every tensor backwards fails most cells alike:
    # one block with the count, the first ids, a repro and the rule, then
    # check's verdicts and gate lines, from the same C++ code.
    result = run("consumers.reads_reversed", "--device", "cpu")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.rstrip().splitlines()
    assert lines[-1].startswith("gate: FAILED (") and " cases run in " in lines[-1], lines[-1]
    (verdicts,) = [line for line in lines if line.startswith("verdicts: ")]
    regressions = int(verdicts.rsplit(", ", 1)[1].split()[0])
    assert regressions > 3, verdicts
    assert f"{regressions} cases not ok, in 1 group (-v lists each case):" in lines
    assert f"regression: {regressions} cases, fail" in lines
    assert "  see: dlpack-usm rules DLP-CONSUMER-CHECKSUM" in lines
    assert not any(line.startswith("FAIL ") for line in lines)
    (repro,) = [line[len("  repro: "):] for line in lines if line.startswith("  repro: ")]
    words = shlex.split(repro)
    assert words[:5] == [sys.executable, "-m", "dlpack_usm", "consume",
                         "consumers.reads_reversed"]
    # The repro offers that one cell again, on its device alone.
    again = run(*words[4:])
    assert again.returncode == 1, again.stdout + again.stderr
    assert "regression: 1 case, fail" in again.stdout, again.stdout

    # -v: a block per failing case; -q: the gate line alone.
    verbose = run("consumers.reads_reversed", "--device", "cpu", "-v")
    blocks = [line for line in verbose.stdout.splitlines()
              if line.startswith("regression consumer/cpu/")]
    assert len(blocks) == regressions, verbose.stdout
    quiet = run("consumers.reads_reversed", "--device", "cpu", "--quiet")
    assert quiet.returncode == 1
    (gate,) = quiet.stdout.splitlines()
    assert gate.startswith(lines[-1].split(" in ")[0] + " in "), (gate, lines[-1])
    assert run("numpy.from_dlpack", "-v", "-q").returncode == 2


def test_require_turns_a_decline_into_a_failure():
    # numpy asks for DLPack 1.0, so float8 (1.1) is declined: not supported...
    arguments = ("numpy.from_dlpack", "--device", "cpu", "--cell", "dtype-float8_e5m2")
    assert run(*arguments).returncode == 0
    # ...until the feature is required.
    required = run(*arguments, "--require", "float8_e5m2")
    assert required.returncode == 1
    assert "DLP-CONSUMER-REQUIRED-FEATURE: --require float8_e5m2, but the consumer declined" \
        in required.stdout


def test_usage_and_environment_errors():
    unknown = run("numpy.from_dlpack", "--require", "purple-usm")
    assert unknown.returncode == 2
    assert "dlpack-usm: error: --require names no feature" in unknown.stderr
    assert run("numpy.from_dlpack", "--device", "nowhere").returncode == 2
    assert run("numpy.arange(3)").returncode == 2
    assert run("numpy.from_dlpack", "--timeout").returncode == 2
    unwritable = run("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order", "--report",
                     "/nonexistent-folder/report.json")
    assert unwritable.returncode == 3
    assert "--report /nonexistent-folder/report.json: the directory /nonexistent-folder is " \
        "not writable" in unwritable.stderr


def test_without_dpctl_the_opencl_runtime_offers_usm(tmp_path):
    # The GPU machine has no dpctl: the bridge offers USM through OpenCL.
    report = tmp_path / "r.json"
    result = run("numpy.from_dlpack", "--cell", "c-order", "--report", str(report),
                 env={"DLPACK_USM_DPCTL": str(tmp_path / "no-dpctl.so")})
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(report.read_text())
    assert document["runtime"] == "opencl"
    assert document["results"][0]["id"] == "consumer/cpu/cpu/c-order"


def test_outputs_are_written_as_the_command_line_writes_reports(tmp_path):
    # An existing report is replaced by a new file (never truncated and
    # rewritten in place), /dev/null stays a device, a folder is refused
    # (2), and the two outputs may not be one file.
    report = tmp_path / "report.json"
    report.write_text("old")
    before = os.stat(report).st_ino
    cell = ("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order")
    result = run(*cell, "--report", str(report), "--junit", os.devnull)
    assert result.returncode == 0, result.stdout + result.stderr
    assert os.stat(report).st_ino != before
    assert json.loads(report.read_text())["summary"]["cases"] == 1
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
    refused = run(*cell, "--report", str(tmp_path))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert str(tmp_path) in refused.stderr
    same = run(*cell, "--report", str(report), "--junit", str(report))
    assert same.returncode == 2 and "same file" in same.stderr


def test_junit_carries_any_message_as_xml_can():
    # A library's message may hold control characters and undecodable bytes
    # (surrogates): the XML stays well-formed, each such character U+FFFD.
    from dlpack_usm.consumer import _report
    result = {"id": "consumer/cpu/cpu/c-order", "device": "cpu", "axis": "memory",
              "status": "fail", "outcome": "wrong-view", "message": "bad\x01 <&> \udcff",
              "findings": [{"rule_id": "DLP-CONSUMER-WRONG-VIEW"}], "duration_ms": 1}
    document = ElementTree.fromstring(_report.junit("lib.from\x07dlpack", [result]))
    (failure,) = document.iter("failure")
    assert failure.get("message") == "wrong-view: bad\ufffd <&> \ufffd"
    assert "DLP-CONSUMER-WRONG-VIEW" in failure.text
    assert document.find("testsuite").get("name") == "consume lib.from\ufffddlpack"
