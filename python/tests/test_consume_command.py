"""python3 -m dlpack_usm consume EXPR as a user (or CI, or the lead on the GPU
machine) runs it, which is `dlpack-usm check --python-consumer EXPR`: check's
text with the consumer's capability profile, the check report with its
profile entries, JUnit with one testcase per cell, --require, and the exit
codes of dlpack-usm (0 ok, 1 a case failed, 2 usage, 3 environment). It
needs neither dpctl (the bridge falls back to its OpenCL runtime) nor
jsonschema."""

import json
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from conftest import numpy_declines_with, package_environment, require

np = require("numpy")

import consumers  # noqa: E402
import engine_runs  # noqa: E402

TESTS = os.path.dirname(os.path.abspath(__file__))
PROFILE_KEYS = {"device", "axis", "value", "outcome", "status", "reason", "case"}


def run(*arguments, env=None):
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "dlpack_usm", "consume", *arguments],
                          capture_output=True, text=True, env=environment, timeout=300)


def junit_cases(junit):
    return list(ElementTree.parse(junit).getroot().iter("testcase"))


def test_a_passing_run_writes_report_and_junit(tmp_path):
    report, junit = tmp_path / "numpy.json", tmp_path / "numpy.xml"
    result = run("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order", "--cell",
                 "negative-stride", "--cell", "dtype-bool", "--report", str(report),
                 "--junit", str(junit))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("consumer: numpy ") and "(numpy.from_dlpack)" in result.stdout
    assert "capability profile (" in result.stdout
    *_, gate, wrote = result.stdout.rstrip().splitlines()
    assert gate.startswith("gate: PASSED (3 cases run, "), result.stdout
    assert wrote.startswith(f"wrote: {report}, {junit}"), result.stdout
    document = json.loads(report.read_text())
    assert document["schema"] == "dlpack-usm.report/3"
    (consumer,) = document["plugins"]
    assert (consumer["role"], consumer["path"]) == ("consumer", "numpy.from_dlpack")
    assert document["summary"]["outcomes"]["pass"] == 3
    assert all(set(entry) == PROFILE_KEYS for entry in document["profile"])
    assert {(entry["axis"], entry["value"], entry["outcome"]) for entry in document["profile"]} == \
        {("memory", "cpu", "accepted"), ("layout", "negative-stride", "accepted"),
         ("dtype", "bool", "accepted")}
    # One testcase per cell, named by its case id and its place in the matrix.
    names = sorted(case.get("name") for case in junit_cases(junit))
    assert [name.split(" [")[0] for name in names] == sorted(
        entry["case"] for entry in document["profile"])
    assert "numpy.from_dlpack/consumer/cpu/cpu/negative-stride [layout=negative-stride]" in names


def test_the_report_says_which_stream_the_consumer_passed(tmp_path):
    found = engine_runs.run("consume", "numpy.from_dlpack", "--device", "cpu", "--cell",
                            "c-order", tmp_path=tmp_path)
    assert found.passed, found.result.stdout + found.result.stderr
    (call,) = found.case("consumer/cpu/cpu/c-order")["calls"]
    assert call["method"] == "__dlpack__" and call["stream"] is None


def test_a_failing_case_exits_1_and_is_a_junit_failure(tmp_path):
    junit = tmp_path / "reversed.xml"
    result = run("consumers.reads_reversed", "--device", "cpu", "--cell", "c-order",
                 "--junit", str(junit))
    assert result.returncode == 1
    assert "  rule DLP-CONSUMER-CHECKSUM: " in result.stdout, result.stdout
    assert "  case: consumers.reads_reversed/consumer/cpu/cpu/c-order" in result.stdout
    *_, gate, wrote = result.stdout.rstrip().splitlines()
    assert gate.startswith("gate: FAILED (1 case run, "), result.stdout
    assert wrote == f"wrote: {junit}", result.stdout
    (case,) = junit_cases(junit)
    assert case.find("failure").get("type") == "fail"
    assert case.find("failure").get("message").startswith("rule DLP-CONSUMER-CHECKSUM: ")


def test_a_decline_passes_and_a_warning_fails_only_under_strict(tmp_path):
    # numpy 2.4 declines bfloat16 with RuntimeError (2.5 with BufferError): a
    # decline, worth knowing.
    declined = run("numpy.from_dlpack", "--device", "cpu", "--cell", "dtype-bfloat16")
    assert declined.returncode == 0, declined.stdout
    assert f"    declined (1): bfloat16: {numpy_declines_with()} (Unsupported dtype in " \
        "DLTensor.)" in declined.stdout, declined.stdout
    junit = tmp_path / "warned.xml"
    cell = ("consumers.declines_odd_extent1_strides", "--device", "cpu", "--cell",
            "extent-1-strides")
    warned = run(*cell, "--junit", str(junit))
    assert warned.returncode == 0, warned.stdout + warned.stderr
    assert "warnings (1 in 1 group; the gate passes them, --strict fails them):" in \
        warned.stdout
    assert "\n  consumers.declines_odd_extent1_strides/consumer/cpu/cpu/extent-1-strides: " \
        "declined" in warned.stdout, warned.stdout
    assert "see: dlpack-usm rules DLP-CONSUMER-INCONSISTENT-DECLINE" in warned.stdout
    (case,) = junit_cases(junit)
    assert case.find("failure") is None and "warning" in case.find("system-out").text
    strict = run(*cell, "--strict", "--junit", str(junit))
    assert strict.returncode == 1 and "gate: FAILED (strict)" in strict.stdout
    (case,) = junit_cases(junit)
    assert case.find("failure") is not None


def test_alike_failures_are_one_group_that_ends_as_check_ends():
    # A consumer that reads every tensor backwards fails most cells alike:
    # one block with the count, the first ids, a repro and the rule, then
    # check's verdicts and gate lines: consume is check.
    result = run("consumers.reads_reversed", "--device", "cpu")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.rstrip().splitlines()
    assert lines[-1].startswith("gate: FAILED (") and " cases run, " in lines[-1], lines[-1]
    (verdicts,) = [line for line in lines if line.startswith("verdicts: ")]
    regressions = int(verdicts.rsplit(", ", 1)[1].split()[0])
    assert regressions > 3, verdicts
    assert f"{regressions} cases not ok, in 1 group (-v lists each case):" in lines
    assert f"regression: {regressions} cases, fail" in lines
    assert "  see: dlpack-usm rules DLP-CONSUMER-CHECKSUM" in lines
    assert not any(line.startswith("FAIL ") for line in lines)
    (repro,) = [line[len("  repro: "):] for line in lines if line.startswith("  repro: ")]
    words = shlex.split(repro)
    assert words[:5] == ["dlpack-usm", "check", "--python-consumer", "consumers.reads_reversed",
                         "--python"]
    assert "--filter" in words
    # The repro runs that one case again.
    from dlpack_usm import _frontend
    again = subprocess.run([_frontend.binary(), *words[1:]], capture_output=True, text=True,
                           env=package_environment(), timeout=300)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "regression: 1 case, fail" in again.stdout, again.stdout

    # -v: a block per failing case; -q: the gate line alone.
    cells = ("--device", "cpu", "--cell", "c-order", "--cell", "f-order", "--cell", "dtype-bool")
    verbose = run("consumers.reads_reversed", *cells, "-v")
    blocks = [line for line in verbose.stdout.splitlines()
              if line.startswith("regression consumers.reads_reversed/consumer/cpu/")]
    assert len(blocks) == 3, verbose.stdout
    quiet = run("consumers.reads_reversed", *cells, "--quiet")
    assert quiet.returncode == 1
    (gate,) = quiet.stdout.splitlines()
    assert gate.startswith("gate: FAILED (3 cases run, "), gate
    assert run("numpy.from_dlpack", "-v", "-q").returncode == 2


def test_require_turns_a_decline_into_a_failure():
    # numpy asks for DLPack 1.0, so float8 (1.1) is declined: not supported...
    arguments = ("numpy.from_dlpack", "--device", "cpu", "--cell", "dtype-float8_e5m2")
    assert run(*arguments).returncode == 0
    # ...until the feature is required.
    required = run(*arguments, "--require", "float8_e5m2")
    assert required.returncode == 1
    assert "rule DLP-CONSUMER-REQUIRED-FEATURE: --require float8_e5m2, but the library " \
        "declined" in required.stdout, required.stdout


def test_usage_and_environment_errors(tmp_path):
    unknown = run("numpy.from_dlpack", "--require", "purple-usm")
    assert unknown.returncode == 2
    assert "dlpack-usm: error: --require purple-usm: no consumer case needs this feature" in \
        unknown.stderr
    assert run("numpy.from_dlpack", "--device", "nowhere").returncode == 2
    not_callable = run("numpy.arange(3)")
    assert not_callable.returncode == 2
    assert "EXPR gives ndarray, not a callable consumer" in not_callable.stderr
    assert run("numpy.from_dlpack", "--timeout").returncode == 2
    (tmp_path / "a-file").write_text("kept\n")
    under_a_file = tmp_path / "a-file" / "report.json"
    unwritable = run("numpy.from_dlpack", "--device", "cpu", "--cell", "c-order", "--report",
                     str(under_a_file))
    assert unwritable.returncode == 3
    assert f"--report {under_a_file}: cannot make the directory {tmp_path / 'a-file'}" \
        in unwritable.stderr


def test_without_dpctl_the_opencl_runtime_offers_usm(tmp_path):
    # The GPU machine has no dpctl: the tool and the bridge offer USM
    # through OpenCL.
    found = engine_runs.run("consume", "numpy.from_dlpack", "--cell", "c-order",
                            tmp_path=tmp_path,
                            env={"DLPACK_USM_DPCTL": str(tmp_path / "no-dpctl.so")})
    assert found.result.returncode in (0, 1), found.result.stderr
    assert found.document["environment"]["runtime"] == "opencl"
    assert found.case("consumer/cpu/cpu/c-order")["outcome"] == "accepted"
    usm = [case for case in found.results if case["device"] != "cpu"]
    assert usm, "no USM case offered"
    assert all(case["status"] not in ("error", "crash") for case in usm), usm


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
    assert json.loads(report.read_text())["summary"]["outcomes"]["pass"] == 1
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
    refused = run(*cell, "--report", str(tmp_path))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert str(tmp_path) in refused.stderr
    same = run(*cell, "--report", str(report), "--junit", str(report))
    assert same.returncode == 2 and "same file" in same.stderr


def test_junit_carries_any_text_as_xml_can(tmp_path):
    # A library's message and the EXPR itself may hold control characters
    # and undecodable bytes (surrogates, as Python holds them): check's
    # JUnit stays well-formed, each such character U+FFFD.
    junit = tmp_path / "hostile.xml"
    expression = "consumers.declines_extent1_strides_saying_hostile_text  # \x07<&>\udcff"
    result = subprocess.run(
        [sys.executable, "-m", "dlpack_usm", "consume", expression, "--device", "cpu",
         "--cell", "extent-1-strides", "--strict", "--junit", str(junit)],
        capture_output=True, env=package_environment(), timeout=300)
    assert result.returncode == 1, (result.stdout, result.stderr)
    root = ElementTree.parse(junit).getroot()
    (failure,) = root.iter("failure")
    assert consumers.HOSTILE_TEXT not in failure.get("message")
    assert "BufferError (bad\ufffd <&> \ufffd\ufffd])" in failure.get("message"), \
        failure.get("message")
    assert "DLP-CONSUMER-INCONSISTENT-DECLINE" in failure.get("message")
    (consumer,) = [item for item in root.iter("property") if item.get("name") == "consumer"]
    assert consumer.get("value").endswith("# \ufffd<&>\ufffd)"), consumer.get("value")
