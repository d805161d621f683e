"""`python3 -m dlpack_usm check` runs the producer's code in the one
engine's Python workers, contained as a library under test: every call into
it answers or becomes a finding of the step that made it, naming what it did
(raised X, ended the process with an exit status or a signal, hung), the
other steps go on, and the command always ends with its report and exit
code 0 or 1 (3 where EXPR itself cannot be evaluated), never 4 for the
producer's doing, never silent."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import gone_within, package_environment, processes_carrying, require
from test_command_line import run

np = require("numpy")

import engine_runs  # noqa: E402

DEVICE_RAISES = ["SystemExit(0)", "RuntimeError('no device today')", "RecursionError",
                 "KeyboardInterrupt"]
ANSWERS_FIRST = ["SystemExit(0)", "RuntimeError", "KeyboardInterrupt"]
SUAI_RAISES = ["SystemExit(0)", "RuntimeError('no USM here')"]
EXITS = "producers.EndsProcess('exit')"
EXITS_LATE = "producers.EndsProcess('exit', {'max_version': (0, 8)}, device=(1, 7))"
SEGV = "producers.EndsProcess('segv', {'max_version': (0, 8)})"
PRODUCERS = ([f"producers.DeviceRaises({exception})" for exception in DEVICE_RAISES] +
             [f"producers.DeviceRaises({exception}, after=1)" for exception in ANSWERS_FIRST] +
             [f"producers.SuaiRaises({exception})" for exception in SUAI_RAISES] +
             [EXITS, EXITS_LATE, SEGV, "producers.FinalizerExits()", "producers.ReturnsHostile()",
              "producers.SuaiHostileDict()"])


@pytest.fixture(scope="module")
def contained(tmp_path_factory):
    """One run of the producers of this file, with the consumer probe (numpy
    asks __dlpack_device__ too)."""
    arguments = [word for expression in PRODUCERS for word in ("--python-producer", expression)]
    # Two jobs, as on the CI machine: a producer's steps share a worker (and
    # so the setup a crash is charged to) however many cores there are.
    found = engine_runs.check(*arguments, "--timeout", "3", "--jobs", "2",
                              tmp_path=tmp_path_factory.mktemp("contained"))
    assert found.result.returncode == 1, found.result.stdout + found.result.stderr
    assert "Traceback" not in found.result.stderr, found.result.stderr
    for expression in PRODUCERS:
        cases = found.of(expression).results
        assert len(cases) == 14, expression
        assert not [case["id"] for case in cases if case["status"] == "error"], expression
    return found


@pytest.mark.parametrize("exception", DEVICE_RAISES)
def test_what_dlpack_device_raises_is_a_finding(contained, exception):
    found = contained.of(f"producers.DeviceRaises({exception})")
    said = {"SystemExit(0)": "SystemExit (0)",
            "RuntimeError('no device today')": "RuntimeError (no device today)"}.get(exception,
                                                                                      exception)
    assert found.step("device-agrees")["status"] == "fail"
    assert any(f"__dlpack_device__() raised {said}" in message
               for message in found.messages("DLP-PY-DEVICE-AGREES")), found.findings
    # The consumer probe (numpy asks __dlpack_device__ too) is not charged
    # with it: the producer raised, not the consumer.
    assert found.step("consumer-probe")["status"] == "pass"
    assert found.notes == []


@pytest.mark.parametrize("exception", ANSWERS_FIRST)
def test_the_consumer_probe_asks_the_producer_nothing_it_answered(contained, exception):
    # The first answer is right, later ones raise: the device is asked once,
    # and the probe takes the device from the capsule, as a consumer's
    # handout says it, so no step hears the later answers.
    found = contained.of(f"producers.DeviceRaises({exception}, after=1)")
    assert {case["status"] for case in found.results} == {"pass"}
    assert found.fired("error", "warning") == [] and found.notes == []


def test_device_raises_in_text_ends_with_the_gate():
    result = run("check", "producers.DeviceRaises(RuntimeError)")
    assert result.returncode == 1, result.stderr
    assert "see: dlpack-usm rules DLP-PY-DEVICE-AGREES" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("gate: FAILED (14 cases run in ")


@pytest.mark.parametrize("exception", SUAI_RAISES)
def test_what_the_sycl_interface_raises_is_a_finding(contained, exception):
    found = contained.of(f"producers.SuaiRaises({exception})")
    (message,) = found.messages("DLP-PY-SUAI-FIELD")
    assert "__sycl_usm_array_interface__ raised" in message
    assert found.step("usm-array-interface")["status"] == "fail"


def test_a_producer_that_exits_on_every_call_is_a_crash_of_its_capsule(contained):
    # The capsule every step rests on is read once per worker: the exit there
    # is charged to the capsule step, and with it to every other step, in
    # one worker's death.
    found = contained.of(EXITS)
    capsule = found.step("capsule")
    assert capsule["status"] == "crash"
    assert [item["rule_id"] for item in capsule["findings"]] == ["DLP-PLUGIN-CRASH"]
    assert capsule["message"].startswith(
        'the case ended its process (exit code 0) in "__dlpack__(max_version=(1, 3))"')
    assert "capsule" not in capsule
    for case in found.results:
        assert case["status"] == "crash", case
        if case is not capsule and case["id"] != capsule["id"]:
            assert case["message"].endswith(
                f"(charged with case {capsule['id']}, whose setup it shares)"), case["message"]


def test_the_checks_after_a_fatal_call_still_run(contained):
    # __dlpack__(max_version=(0, 8)) exits; the device check is a step of its
    # own and finds the lie __dlpack_device__ tells.
    found = contained.of(EXITS_LATE)
    crashed = found.step("legacy-max-version")
    assert crashed["status"] == "crash"
    assert crashed["message"].startswith(
        'the case ended its process (exit code 0) in "__dlpack__(max_version=(0, 8))"')
    assert any("says (1, 7)" in message for message in found.messages("DLP-PY-DEVICE-AGREES"))
    assert found.capsule["dl_tensor"]["shape"] == [2, 3]
    assert [case["id"] for case in found.results if case["status"] == "crash"] == \
        [crashed["id"]]


def test_a_producer_that_crashes_is_named_with_its_signal(contained):
    crashed = contained.of(SEGV).step("legacy-max-version")
    assert crashed["status"] == "crash"
    assert crashed["message"].startswith(
        'the case died on signal 11 (Segmentation fault) in "__dlpack__(max_version=(0, 8))"')
    # The worker's traceback of the crash, from the producer's code.
    assert "producers.py" in crashed["message"]


def test_a_producer_crash_gives_a_snippet_that_crashes_alone(contained):
    # The snippet asks the same step of EXPR's object in a plain interpreter
    # (dlpack_usm.repro.producer_step): the same signal, outside the tool.
    snippet = contained.of(SEGV).step("legacy-max-version")["snippet"]
    assert "producer_step(" in snippet and "'legacy-max-version'" in snippet, snippet
    alone = subprocess.run(["sh", "-c", snippet], env=package_environment(), capture_output=True,
                           text=True, timeout=120)
    assert alone.returncode in (-signal.SIGSEGV, 128 + signal.SIGSEGV), alone
    assert "Fatal Python error: Segmentation fault" in alone.stderr, alone.stderr
    # A step that finds nothing prints its empty list of findings.
    snippet = contained.of(SEGV).step("versioned")["snippet"]
    quiet = subprocess.run(["sh", "-c", snippet], env=package_environment(), capture_output=True,
                           text=True, timeout=120)
    assert (quiet.returncode, quiet.stdout) == (0, "[]\n"), quiet


def test_a_producer_that_hangs_is_killed_at_the_timeout():
    started = time.monotonic()
    result = run("check", "--timeout", "1", "producers.EndsProcess('hang', {'max_version': (0, 8)})")
    assert time.monotonic() - started < 60
    assert result.returncode == 1
    assert 'no result within 1000 ms in "__dlpack__(max_version=(0, 8))"' in result.stdout, \
        result.stdout
    assert "see: dlpack-usm rules DLP-PLUGIN-HANG" in result.stdout


def test_a_finalizer_that_exits_is_a_crash_outside_any_call(contained):
    # __dlpack_device__() returned; its answer's finalizer ended the process
    # as the checker dropped it: the step is charged, and no call is named.
    crashed = contained.of("producers.FinalizerExits()").step("device-agrees")
    assert crashed["status"] == "crash"
    assert crashed["message"].startswith("the case ended its process (exit code 0) before "
                                         "reporting a result"), crashed["message"]
    assert [item["rule_id"] for item in crashed["findings"]] == ["DLP-PLUGIN-CRASH"]


def test_a_returned_object_that_raises_system_exit_is_a_finding(contained):
    found = contained.of("producers.ReturnsHostile()")
    assert found.messages("DLP-PY-CAPSULE-NAME")
    assert found.step("capsule")["status"] == "fail"


@pytest.mark.parametrize("expression,words", [
    ("os._exit(0)", "ended the process (exit code 0)"),
    ("time.sleep(30)", "did not finish within 3000 ms"),
])
def test_an_expression_that_ends_or_hangs_is_an_error_before_any_case(expression, words):
    # EXPR is evaluated when the worker imports the producer: its end is the
    # run's environment error (3), which names the producer and how it ended.
    result = run("check", "--timeout", "1", expression, env={"DLPACK_USM_PROBE_TIMEOUT_S": "3"})
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert result.stderr.startswith("dlpack-usm: error: importing the producer ")
    assert words in result.stderr, result.stderr


def test_producer_code_that_escapes_a_check_is_a_finding_of_its_rule(contained):
    # The interface is a dict whose get() raises SystemExit: not a call the
    # checker guards, so the exception escapes the interface's check.
    found = contained.of("producers.SuaiHostileDict()")
    (message,) = found.messages("DLP-PY-SUAI-FIELD")
    assert message.startswith("__sycl_usm_array_interface__: the producer's code raised "
                              "SystemExit (0) (producers.py:"), message
    assert "while the checker asked __sycl_usm_array_interface__" in message


def test_a_stop_signal_ends_the_check_with_what_it_found(tmp_path):
    pids, report = tmp_path / "pids", tmp_path / "report.json"
    token = f"dlpack-usm-test-{os.getpid()}-{time.monotonic_ns()}"
    command = subprocess.Popen(
        [sys.executable, "-m", "dlpack_usm", "check", "--timeout", "30", "--report", str(report),
         "producers.EndsProcess('hang', {'max_version': (0, 8)})"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=package_environment({"DLPACK_USM_TEST_PIDS": str(pids),
                                 "DLPACK_USM_TEST_TOKEN": token}))
    deadline = time.monotonic() + 60
    while not pids.exists() and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.05)
    assert pids.read_text().split(), "the producer never hung"
    assert processes_carrying(token), "the run's processes are seen by their token"
    command.send_signal(signal.SIGTERM)
    stdout, stderr = command.communicate(timeout=10)
    assert command.returncode == 128 + signal.SIGTERM, (stdout, stderr)
    # check's gate line (the report written after it): what ran, and that
    # the run was interrupted; the hanging step and those after it not run.
    (gate,) = [line for line in stdout.splitlines() if line.startswith("gate: ")]
    assert gate.startswith("gate: FAILED (") and gate.endswith(", interrupted)"), stdout
    found = engine_runs.read_report(command, str(report), engine_runs.label(
        "producers.EndsProcess('hang', {'max_version': (0, 8)})"))
    assert found.document["summary"]["interrupted"] is True
    hung = found.step("legacy-max-version")
    assert hung["status"] == "not_run" and "interrupted" in hung["message"], hung
    # What was found before the signal is kept.
    assert "pass" in {case["status"] for case in found.results}
    # No process of the run (they all carry the token) outlives it.
    assert gone_within(token, 2) == []
