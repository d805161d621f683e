"""`python3 -m dlpack_usm consume` contains the consumer as the command
line contains a library under test: a consumer that forks and carries on
changes no case, no process it starts outlives the run, a terminating
signal ends the run with a partial report, and a result that cannot be read
back fails its case, whatever the result's code raises."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import require
from test_consume_command import TESTS, run

np = require("numpy")

CELLS = ("--device", "cpu", "--cell", "c-order", "--cell", "f-order", "--cell", "dtype-bool")


def alive(pid):
    """Whether process `pid` exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pids, seconds):
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def noted_pids(path):
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def test_a_consumer_that_forks_and_carries_on_changes_no_case(tmp_path):
    report = tmp_path / "r.json"
    result = run("consumers.forks_on_c_order", *CELLS, "--report", str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    ids = [entry["id"] for entry in json.loads(report.read_text())["results"]]
    assert ids == ["consumer/cpu/cpu/c-order", "consumer/cpu/cpu/dtype-bool",
                   "consumer/cpu/cpu/f-order"]
    assert "3 cases: 3 passed" in result.stdout


def test_chatter_on_the_result_channel_is_charged_to_the_case(tmp_path):
    report = tmp_path / "r.json"
    result = run("consumers.chatters_on_c_order", *CELLS, "--report", str(report))
    assert result.returncode == 1, result.stdout + result.stderr
    statuses = {entry["id"].rsplit("/", 1)[1]: (entry["outcome"], entry["message"])
                for entry in json.loads(report.read_text())["results"]}
    assert statuses["c-order"][0] == "crash"
    assert "its result channel carried a line the runner did not write: 'chatter'" in \
        statuses["c-order"][1]
    assert statuses["dtype-bool"][0] == statuses["f-order"][0] == "accepted"


def test_no_child_of_the_consumer_outlives_the_run(tmp_path):
    # Output to files: a pipe would keep the test waiting for the children
    # that hold it open.
    pids, out = tmp_path / "pids", tmp_path / "out"
    with open(out, "w") as output:
        command = start("consumers.leaves_children", *CELLS, pids=pids, stdout=output,
                        stderr=subprocess.STDOUT)
        assert command.wait(timeout=60) == 0, out.read_text()
    noted = noted_pids(pids)
    assert len(noted) == 6
    assert gone_within(noted, 2) == []


def wait_for_pids(pids, command):
    """The pids noted in `pids` once there are some (the consumer hangs)."""
    deadline = time.monotonic() + 60
    while not noted_pids(pids) and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.05)
    return noted_pids(pids)


def start(*arguments, pids, **keywords):
    """`consume` started with DLPACK_USM_TEST_PIDS naming `pids`."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    environment["DLPACK_USM_TEST_PIDS"] = str(pids)
    return subprocess.Popen([sys.executable, "-m", "dlpack_usm", "consume", *arguments],
                            env=environment, **keywords)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_ends_the_run_with_a_partial_report(tmp_path, signum):
    pids, report = tmp_path / "pids", tmp_path / "r.json"
    command = start("consumers.hangs_on_bool_noting_pid", *CELLS, "--timeout", "30",
                    "--report", str(report), pids=pids, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
    (hanging,) = wait_for_pids(pids, command)
    command.send_signal(signum)
    try:
        stdout, stderr = command.communicate(timeout=3)
    except subprocess.TimeoutExpired:
        command.kill()
        raise
    assert command.returncode == 128 + signum, (command.returncode, stdout, stderr)
    # check's gate line, from the same code: the cases that ran, and that
    # the run was interrupted (the exit code names the signal).
    assert "gate: FAILED (" in stdout and ", interrupted)" in stdout, stdout
    assert gone_within([hanging], 2) == []
    document = json.loads(report.read_text())
    assert document["summary"]["interrupted"] is True
    assert document["summary"]["not_run"] == 2
    assert [(entry["id"].rsplit("/", 1)[1], entry["status"]) for entry in document["results"]] == \
        [("c-order", "pass"), ("dtype-bool", "not_run"), ("f-order", "not_run")]
    assert document["results"][1]["message"] == \
        f"not run: the run was interrupted by {signal.Signals(signum).name}"
    require("jsonschema")
    sys.path.insert(0, os.path.join(TESTS, os.pardir, os.pardir, "tests", "tools"))
    import validate_outputs
    schema = os.path.join(TESTS, os.pardir, os.pardir, "conformance", "schema",
                          "consume-report.schema.json")
    assert validate_outputs.validate_schema(schema, [str(report)])


def test_a_killed_run_takes_its_children_with_it(tmp_path):
    # SIGKILL cannot be caught: the zygote and its runners die with their
    # parent (PR_SET_PDEATHSIG).
    pids = tmp_path / "pids"
    command = start("consumers.hangs_on_bool_noting_pid", *CELLS, "--timeout", "30", pids=pids,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (hanging,) = wait_for_pids(pids, command)
    command.kill()
    command.wait(timeout=3)
    assert gone_within([hanging], 2) == []


@pytest.mark.parametrize("consumer,words", [
    ("consumers.returns_none", "returned a builtins.NoneType"),
    ("consumers.returns_wrong_list", "returned a builtins.list"),
    ("consumers.returns_array_raising(RuntimeError('no'))", "RuntimeError (no)"),
    ("consumers.returns_array_raising(SystemExit(0))", "SystemExit (0)"),
    ("consumers.returns_dlpack_raising", "SystemExit (0)"),
    ("consumers.returns_attributes_raising", "SystemExit (0)"),
])
def test_a_result_that_cannot_be_read_back_fails_with_its_reason(consumer, words):
    result = run(consumer, "--device", "cpu", "--cell", "c-order")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "wrong: rule DLP-CONSUMER-CHECKSUM" in result.stdout, result.stdout
    assert "case: consumer/cpu/cpu/c-order" in result.stdout, result.stdout
    assert words in result.stdout, result.stdout
