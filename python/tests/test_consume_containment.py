"""`python3 -m dlpack_usm consume` contains the consumer as the command
line contains a library under test (it is `dlpack-usm check
--python-consumer`, the consumer in the runner's Python workers): a consumer
that forks and carries on changes no case, no process it starts outlives the
run, a terminating signal ends the run with a partial report, a line the
consumer writes on the result channel is charged to its case, and a result
that cannot be read back fails its case, whatever the result's code raises."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import gone_within, package_environment, processes_carrying, require

np = require("numpy")

import engine_runs  # noqa: E402

CELLS = ("--device", "cpu", "--cell", "c-order", "--cell", "f-order", "--cell", "dtype-bool")


def token_for(name):
    """A text no process outside the run carries in its environment."""
    return f"dlpack-usm-test-{name}-{os.getpid()}-{time.monotonic_ns()}"


def noted_pids(path):
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def test_a_consumer_that_forks_and_carries_on_changes_no_case(tmp_path):
    found = engine_runs.run("consume", "consumers.forks_on_c_order", *CELLS, tmp_path=tmp_path)
    assert found.passed, found.result.stdout + found.result.stderr
    assert {case["cell"]: case["status"] for case in found.results} == \
        {"c-order": "pass", "dtype-bool": "pass", "f-order": "pass"}
    assert "gate: PASSED (3 cases run, " in found.result.stdout


def test_chatter_on_the_result_channel_is_charged_to_the_case(tmp_path):
    found = engine_runs.run("consume", "consumers.chatters_on_c_order", *CELLS,
                            tmp_path=tmp_path)
    assert found.result.returncode == 1, found.result.stdout + found.result.stderr
    cases = {case["cell"]: case for case in found.results}
    assert cases["c-order"]["status"] == "error"
    assert "the result channel carried a line without its nonce while this case ran, so the " \
        "library under test wrote on it" in cases["c-order"]["message"]
    assert '"chatter"' in cases["c-order"]["message"]
    assert cases["dtype-bool"]["outcome"] == cases["f-order"]["outcome"] == "accepted"


def start(*arguments, token, pids=None, **keywords):
    """`consume` started with `token` in its environment (and so in every
    process of the run), DLPACK_USM_TEST_PIDS naming `pids`."""
    extra = {"DLPACK_USM_TEST_TOKEN": token}
    if pids is not None:
        extra["DLPACK_USM_TEST_PIDS"] = str(pids)
    return subprocess.Popen([sys.executable, "-m", "dlpack_usm", "consume", *arguments],
                            env=package_environment(extra), **keywords)


def test_no_child_of_the_consumer_outlives_the_run(tmp_path):
    # Output to files: a pipe would keep the test waiting for the children
    # that hold it open.
    pids, out, token = tmp_path / "pids", tmp_path / "out", token_for("children")
    with open(out, "w") as output:
        command = start("consumers.leaves_children", *CELLS, token=token, pids=pids,
                        stdout=output, stderr=subprocess.STDOUT)
        assert command.wait(timeout=120) == 0, out.read_text()
    assert len(noted_pids(pids)) == 6  # three children, three daemons
    assert gone_within(token, 2) == []


def wait_for_pids(pids, command):
    """The pids noted in `pids` once there are some (the consumer hangs)."""
    deadline = time.monotonic() + 60
    while not noted_pids(pids) and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.05)
    return noted_pids(pids)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_ends_the_run_with_a_partial_report(tmp_path, signum):
    pids, report, token = tmp_path / "pids", tmp_path / "r.json", token_for("signal")
    # One job: c-order runs first, then dtype-bool hangs, f-order waits.
    command = start("consumers.hangs_on_bool_noting_pid", *CELLS, "--jobs", "1", "--timeout",
                    "30", "--report", str(report), token=token, pids=pids,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert len(wait_for_pids(pids, command)) == 1, "the consumer never hung"
    assert processes_carrying(token)
    command.send_signal(signum)
    try:
        stdout, stderr = command.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        command.kill()
        raise
    assert command.returncode == 128 + signum, (command.returncode, stdout, stderr)
    # check's gate line: the cases that ran, and that the run was
    # interrupted (the exit code names the signal).
    (gate,) = [line for line in stdout.splitlines() if line.startswith("gate: ")]
    assert gate.startswith("gate: FAILED (") and gate.endswith(", interrupted)"), stdout
    assert gone_within(token, 2) == []
    found = engine_runs.read_report(command, str(report), "consumers.hangs_on_bool_noting_pid")
    assert found.document["summary"]["interrupted"] is True
    assert found.document["summary"]["outcomes"]["not_run"] == 2
    assert {case["cell"]: case["status"] for case in found.results} == \
        {"c-order": "pass", "dtype-bool": "not_run", "f-order": "not_run"}
    assert found.case("consumer/cpu/cpu/dtype-bool")["message"] == \
        "the run was interrupted before this case finished"


def test_a_killed_run_takes_its_workers_with_it(tmp_path):
    # SIGKILL cannot be caught: the workers die with the runner
    # (PR_SET_PDEATHSIG), and the consumer's process with them.
    pids, token = tmp_path / "pids", token_for("killed")
    command = start("consumers.hangs_on_bool_noting_pid", *CELLS, "--timeout", "30",
                    token=token, pids=pids, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
    assert wait_for_pids(pids, command), "the consumer never hung"
    command.kill()
    command.wait(timeout=3)
    assert gone_within(token, 2) == []


READ_BACK = {
    "consumers.returns_none": "returned a builtins.NoneType",
    "consumers.returns_wrong_list": "returned a builtins.list",
    "consumers.returns_array_raising(RuntimeError('no'))": "RuntimeError (no)",
    "consumers.returns_array_raising(SystemExit(0))": "SystemExit (0)",
    "consumers.returns_dlpack_raising": "SystemExit (0)",
    "consumers.returns_attributes_raising": "SystemExit (0)",
}


@pytest.fixture(scope="module")
def read_back(tmp_path_factory):
    """Every consumer of READ_BACK on c-order, in one run."""
    arguments = [word for consumer in READ_BACK for word in ("--python-consumer", consumer)]
    found = engine_runs.check(*arguments, "--device", "cpu", "--cell", "c-order",
                              tmp_path=tmp_path_factory.mktemp("read-back"))
    assert found.result.returncode == 1, found.result.stdout + found.result.stderr
    return found


@pytest.mark.parametrize("consumer,words", READ_BACK.items())
def test_a_result_that_cannot_be_read_back_fails_with_its_reason(read_back, consumer, words):
    case = read_back.of(consumer).case("consumer/cpu/cpu/c-order")
    assert (case["outcome"], case["status"]) == ("wrong", "fail"), case
    assert case["message"].startswith("rule DLP-CONSUMER-CHECKSUM: "), case["message"]
    assert words in case["message"], case["message"]
