"""`python3 -m dlpack_usm check` runs the producer's code contained, as the
command line runs a library under test: every call into it answers or
becomes a finding naming what it did (raised X, ended the process with an
exit status or a signal, hung), and the command always ends with its report
and exit code 0 or 1 (2 or 3 for usage and environment), never 4 for the
producer's doing, never silent."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import require
from test_command_line import TESTS, run
from test_hostile_producers import check_json

np = require("numpy")


def check(expression, *options):
    """check --json with the consumer probe, unless --no-consumer is given."""
    return check_json(expression, *options, consumer=True)


def messages(document, rule_id):
    return [item["message"] for item in document["findings"] if item["rule_id"] == rule_id]


@pytest.mark.parametrize("exception,said", [
    ("SystemExit(0)", "SystemExit (0)"),
    ("RuntimeError('no device today')", "RuntimeError (no device today)"),
    ("RecursionError", "RecursionError"),
    ("KeyboardInterrupt", "KeyboardInterrupt"),
])
def test_what_dlpack_device_raises_is_a_finding(exception, said):
    # The consumer probe (numpy) asks __dlpack_device__ too: not skipped here.
    result, document = check(f"producers.DeviceRaises({exception})")
    assert result.returncode == 1
    assert any(f"__dlpack_device__() raised {said}" in message
               for message in messages(document, "DLP-PY-DEVICE-AGREES")), document["findings"]
    # The producer raised in the contained consumer probe, not the consumer.
    assert document["notes"] == []


@pytest.mark.parametrize("exception", ["SystemExit(0)", "RuntimeError", "KeyboardInterrupt"])
def test_the_consumer_probe_asks_the_producer_nothing_it_answered(exception):
    # The first answer is right, so the tensor is not flagged and the
    # consumer probe ran in the checker's own process, where it asked
    # __dlpack_device__ again: the second answer ended the check silently
    # (SystemExit) or with exit 4. The probe now takes the device from the
    # capsule, as a consumer's handout says it.
    result, document = check(f"producers.DeviceRaises({exception}, after=1)")
    assert result.returncode == 0
    assert document["counts"]["error"] == 0 and document["notes"] == []


def test_device_raises_in_text_ends_with_the_summary():
    result = run("check", "producers.DeviceRaises(RuntimeError)")
    assert result.returncode == 1, result.stderr
    assert "DLP-PY-DEVICE-AGREES" in result.stdout
    assert "checked 1 object: 1 error" in result.stdout


@pytest.mark.parametrize("exception", ["SystemExit(0)", "RuntimeError('no USM here')"])
def test_what_the_sycl_interface_raises_is_a_finding(exception):
    result, document = check(f"producers.SuaiRaises({exception})", "--no-consumer")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PY-SUAI-FIELD")
    assert "__sycl_usm_array_interface__ raised" in message


def test_a_producer_that_exits_on_every_call_is_a_crash_finding():
    result, document = check("producers.EndsProcess('exit')", "--timeout", "3")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PLUGIN-CRASH")
    assert message.startswith("__dlpack__(max_version=(1, 3)) ended the process (exit status 0)")
    assert document["capsule"] is None


def test_the_checks_after_a_fatal_call_still_run():
    # __dlpack__(max_version=(0, 8)) exits; the device check comes later and
    # finds the lie __dlpack_device__ tells.
    result, document = check("producers.EndsProcess('exit', {'max_version': (0, 8)}, "
                             "device=(1, 7))", "--timeout", "3")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PLUGIN-CRASH")
    assert message.startswith("__dlpack__(max_version=(0, 8)) ended the process (exit status 0)")
    assert any("says (1, 7)" in message for message in messages(document, "DLP-PY-DEVICE-AGREES"))
    assert document["capsule"]["dl_tensor"]["shape"] == [2, 3]


def test_a_producer_that_crashes_is_named_with_its_signal():
    result, document = check("producers.EndsProcess('segv', {'max_version': (0, 8)})",
                             "--timeout", "3")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PLUGIN-CRASH")
    assert message.startswith("__dlpack__(max_version=(0, 8)) died of SIGSEGV")


def test_a_producer_that_hangs_is_killed_at_the_timeout():
    started = time.monotonic()
    result, document = check("producers.EndsProcess('hang', {'max_version': (0, 8)})",
                             "--timeout", "1")
    assert time.monotonic() - started < 20
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PLUGIN-HANG")
    assert message.startswith("__dlpack__(max_version=(0, 8)) did not return within 1 s")


def test_a_finalizer_that_exits_is_a_crash_outside_any_call():
    result, document = check("producers.FinalizerExits()", "--timeout", "3")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PLUGIN-CRASH")
    assert "ended the process (exit status 0) after __dlpack_device__() returned" in message
    assert "a finalizer" in message


def test_a_returned_object_that_raises_system_exit_is_a_finding():
    result, document = check("producers.ReturnsHostile()", "--timeout", "3")
    assert result.returncode == 1
    assert messages(document, "DLP-PY-CAPSULE-NAME")


@pytest.mark.parametrize("expression,words", [
    ("os._exit(0)", "evaluating EXPR ended the process (exit status 0)"),
    ("time.sleep(30)", "evaluating EXPR did not finish within 1 s"),
])
def test_an_expression_that_ends_or_hangs_is_a_usage_error(expression, words):
    result = run("check", "--timeout", "1", expression)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("dlpack-usm: error: ") and words in result.stderr


def test_producer_code_that_escapes_a_check_is_a_finding_of_its_rule():
    # The interface is a dict whose get() raises SystemExit: not a call the
    # checker guards, so the exception escapes the interface's check.
    result, document = check("producers.SuaiHostileDict()", "--no-consumer")
    assert result.returncode == 1
    (message,) = messages(document, "DLP-PY-SUAI-FIELD")
    assert message.startswith("the producer's code raised SystemExit (0) (producers.py:")
    assert "while the checker asked __sycl_usm_array_interface__" in message


def test_a_stop_signal_ends_the_check_with_what_it_found(tmp_path):
    pids = tmp_path / "pids"
    environment = dict(os.environ, DLPACK_USM_TEST_PIDS=str(pids), PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS]))
    command = subprocess.Popen(
        [sys.executable, "-m", "dlpack_usm", "check", "--timeout", "30",
         "producers.EndsProcess('hang', {'max_version': (0, 8)})"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    deadline = time.monotonic() + 60
    while not pids.exists() and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.05)
    hanging = int(pids.read_text())
    command.send_signal(signal.SIGTERM)
    stdout, stderr = command.communicate(timeout=3)
    assert command.returncode == 128 + signal.SIGTERM, (stdout, stderr)
    assert "checked 1 object" in stdout
    assert "interrupted by SIGTERM: the checks from __dlpack__(max_version=(0, 8)) on were " \
        "not made" in stdout
    assert not os.path.exists(f"/proc/{hanging}") or \
        open(f"/proc/{hanging}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"
