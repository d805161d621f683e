"""The one engine (issue 33): Python consumers, producers and libraries are
run by `dlpack-usm check` in Python workers, and `python -m dlpack_usm
check | consume | profile` are front-ends over it with every gate option:
baselines, GitHub annotations, the step summary, JUnit, shards that merge
into the verdicts of the whole run; a crash, a hang or a daemon of the
library under test is charged to its case and leaves no process behind.
Through the real interpreter and the real binary."""

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import no_width_environment, require, run_package

np = require("numpy")

TESTS = os.path.dirname(os.path.abspath(__file__))
# The worker in a PID namespace of its own (the default where the kernel
# allows it), and in the fallback: a guard that is the subreaper.
CONTAINMENTS = [{}, {"DLPACK_USM_CONTAINMENT": "subreaper"}]
CPU_CELLS = ("--device", "cpu", "--cell", "c-order", "--cell", "f-order", "--cell", "dtype-bool")


def binary():
    from dlpack_usm import _frontend
    return _frontend.binary()


def outcomes(report):
    document = json.loads(report.read_text())
    return {case["id"]: case for case in document["results"] if case["outcome"] != "skipped"}


@pytest.mark.parametrize("command,target,extra", [
    ("consume", "consumers.reads_reversed", CPU_CELLS),
    ("check", "producers.WildShape()", ()),
    ("profile", "wrong_namespace", ("--side", "producer", "--device", "cpu", "--cell",
                                    "dtype-int8", "--timeout", "10")),
])
def test_a_known_failure_in_the_baseline_passes_the_gate_with_every_output(tmp_path, command,
                                                                           target, extra):
    failures = tmp_path / "failures.txt"
    first = run_package(command, target, *extra, "--failures", str(failures))
    assert first.returncode == 1, first.stdout + first.stderr
    known = [line.split()[0] for line in failures.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert known, first.stdout
    out = tmp_path / "out"
    summary, junit, report = out / "summary.md", out / "junit.xml", out / "report.json"
    out.mkdir()
    summary.write_text("# earlier steps\n")
    second = run_package(command, target, *extra, "--baseline", str(failures), "--format",
                         "github", "--summary-md", str(summary), "--junit", str(junit),
                         "--report", str(report))
    assert second.returncode == 0, second.stdout + second.stderr
    assert "gate: PASSED" in second.stdout, second.stdout
    document = json.loads(report.read_text())
    assert document["schema"].startswith("dlpack-usm.report/")
    verdicts = {case["id"]: case["verdict"] for case in document["results"]}
    assert all(verdicts[case_id] == "expected_failure" for case_id in known)
    assert summary.read_text().startswith("# earlier steps\n")
    assert "gate" in summary.read_text().lower()
    root = ElementTree.parse(junit).getroot()
    assert int(root.get("tests")) == len([c for c in document["results"]
                                          if c["outcome"] != "skipped"])


def test_shards_of_a_python_consumer_merge_into_the_verdicts_of_the_whole_run(tmp_path):
    arguments = ["check", "--python-consumer", "consumers.reads_reversed", "--python",
                 sys.executable, "--device", "cpu"]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS]))
    whole, one, two = tmp_path / "whole.json", tmp_path / "1.json", tmp_path / "2.json"
    for report, shard in ((whole, []), (one, ["--shard", "1/2"]), (two, ["--shard", "2/2"])):
        subprocess.run([binary(), *arguments, *shard, "--report", str(report)], env=environment,
                       capture_output=True, text=True, timeout=300)
    merged = tmp_path / "merged.json"
    result = subprocess.run([binary(), "report", "merge", str(one), str(two), "--report",
                             str(merged)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    expected = {case["id"]: (case["outcome"], case["verdict"])
                for case in json.loads(whole.read_text())["results"]}
    found = {case["id"]: (case["outcome"], case["verdict"])
             for case in json.loads(merged.read_text())["results"]}
    assert found == expected


def processes_with(token):
    """The pids of the processes whose command line holds `token`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if token.encode() in cmdline.read():
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


def test_a_consumer_that_crashes_on_its_second_call_is_charged_there(tmp_path):
    report = tmp_path / "r.json"
    # Two jobs, as on the CI machine: two of the three cases share a worker
    # (one job per case on a machine of many cores would make no second call).
    result = run_package("consume", "consumers.crashes_on_second_call", *CPU_CELLS,
                         "--jobs", "2", "--report", str(report))
    assert result.returncode == 1, result.stdout + result.stderr
    found = outcomes(report)
    assert len(found) == 3
    crashed = [case for case in found.values() if case["outcome"] == "crash"]
    assert len(crashed) == 1, found
    assert "signal 6" in crashed[0]["message"]
    assert all(case["outcome"] == "pass" for case in found.values() if case not in crashed)


def test_a_hanging_consumer_is_charged_and_the_run_goes_on(tmp_path):
    report = tmp_path / "r.json"
    result = run_package("consume", "consumers.hangs_on_f_order", *CPU_CELLS, "--timeout", "3",
                         "--report", str(report))
    assert result.returncode == 1, result.stdout + result.stderr
    found = {case_id.rsplit("/", 1)[1]: case["outcome"] for case_id, case in
             outcomes(report).items()}
    assert found == {"c-order": "pass", "f-order": "timeout", "dtype-bool": "pass"}


@pytest.mark.parametrize("containment", CONTAINMENTS, ids=["namespace", "subreaper"])
def test_a_daemon_of_the_consumer_does_not_outlive_the_run(tmp_path, containment):
    token = f"dlpack-usm-test-daemon-{os.getpid()}-{time.monotonic_ns()}"
    report, pids = tmp_path / "r.json", tmp_path / "pids"
    result = run_package("consume", "consumers.forks_a_daemon_on_c_order", *CPU_CELLS,
                         "--report", str(report),
                         env={"DLPACK_USM_TEST_TOKEN": token, "DLPACK_USM_TEST_PIDS": str(pids),
                              **containment})
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(pids.read_text().split()) == 1  # the daemon was started
    assert all(case["outcome"] == "pass" for case in outcomes(report).values())
    deadline = time.monotonic() + 2
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(token) == []


@pytest.mark.parametrize("containment", CONTAINMENTS, ids=["namespace", "subreaper"])
@pytest.mark.parametrize("consumer", ["consumers.kills_its_parent_on_f_order",
                                      "consumers.kills_its_group_on_f_order"])
def test_a_consumer_that_kills_its_parent_or_group_is_charged_with_a_report(tmp_path, consumer,
                                                                            containment):
    # Its parent is the worker's guard (or, in a PID namespace, its init,
    # which the kernel keeps from a signal sent inside): never the runner.
    report = tmp_path / "r.json"
    result = run_package("consume", consumer, *CPU_CELLS, "--report", str(report),
                         env=containment)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    found = {case_id.rsplit("/", 1)[1]: case["outcome"] for case_id, case in
             outcomes(report).items()}
    assert found["c-order"] == found["dtype-bool"] == "pass", found
    assert found["f-order"] in ("pass", "crash"), found
    if "group" in consumer or containment:
        assert found["f-order"] == "crash", found


# Every combination: under the subreaper containment a parent kill kills
# the worker's guard, and the worker, which lives on until the parent-death
# signal arrives, dies before it reports the case (worker_guard_killed), so
# the cell that killed is charged, never a later case of the same worker.
@pytest.mark.parametrize("module,containment", [
    ("kills_parent_namespace", CONTAINMENTS[0]), ("kills_group_namespace", CONTAINMENTS[0]),
    ("kills_parent_namespace", CONTAINMENTS[1]), ("kills_group_namespace", CONTAINMENTS[1])],
    ids=["parent-namespace", "group-namespace", "parent-subreaper", "group-subreaper"])
def test_a_profiled_library_that_kills_its_parent_or_group_is_charged_with_a_report(
        tmp_path, module, containment):
    # Making the broadcast cell's array kills: the cell's requests are
    # charged (they share that setup), c-order is judged, the run ends with
    # its report.
    report = tmp_path / "r.json"
    result = run_package("profile", module, "--side", "producer", "--device", "cpu", "--cell",
                         "c-order", "--cell", "broadcast", "--report", str(report),
                         env=containment)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    found = outcomes(report)
    cells = {cell: {case["outcome"] for case_id, case in found.items() if f"/{cell}/" in case_id}
             for cell in ("c-order", "broadcast")}
    assert cells["c-order"] <= {"pass", "warn", "not_supported"}, cells
    # In a PID namespace the parent is the namespace's init, which the
    # kernel keeps from the signal: the cell is made and judged as any other.
    # The group's kill, and the guard's, end the worker: the cell's crash.
    if "group" in module or containment:
        assert cells["broadcast"] == {"crash"}, cells
    else:
        assert cells["broadcast"] <= {"pass", "warn", "not_supported"}, cells


@pytest.mark.parametrize("command", ["consume", "profile"])
def test_a_library_that_ignores_sigchld_is_run_as_any_other(tmp_path, command):
    target = "ignores_sigchld.from_dlpack" if command == "consume" else "ignores_sigchld"
    report = tmp_path / "r.json"
    result = run_package(command, target, "--device", "cpu", "--cell", "c-order", "--report",
                         str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    assert all(case["outcome"] in ("pass", "warn", "not_supported")
               for case in outcomes(report).values())


@pytest.mark.parametrize("module,how", [("import_segfaults", "crashed (signal 11)"),
                                        ("import_exits", "ended the process (exit code 0)"),
                                        ("import_hangs", "did not finish within")])
@pytest.mark.parametrize("command,role", [("profile", "library"), ("check", "producer")])
def test_an_import_that_ends_the_worker_is_the_library_s(module, how, command, role):
    target = module if command == "profile" else f"{module}.x"
    result = run_package(command, target, env={"DLPACK_USM_PROBE_TIMEOUT_S": "3"})
    assert result.returncode == 3, (result.stdout, result.stderr)
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"dlpack-usm: error: importing the {role} {target!r}") or \
        first.startswith(f"dlpack-usm: error: importing the {role} \"{target}\""), first
    assert how in first, first


def test_report_matrix_reads_the_check_report_of_a_profile(tmp_path):
    # Both directions of one Python library in one column: its producer's
    # answers and its consumer's cells, each from the record's fields.
    report = tmp_path / "p.json"
    result = run_package("profile", "numpy", "--device", "cpu", "--cell", "read-only", "--cell",
                         "c-order", "--report", str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    matrix = subprocess.run([binary(), "report", "matrix", str(report)], capture_output=True,
                            text=True, timeout=60, env=no_width_environment())
    assert matrix.returncode == 0, matrix.stdout + matrix.stderr
    lines = matrix.stdout.splitlines()
    assert any(line.startswith("producer") and "read-only" in line for line in lines), lines
    assert any(line.startswith("consumer") and "read-only" in line for line in lines), lines
    assert "numpy" in matrix.stdout


def test_a_python_library_that_hangs_every_case_is_stopped(tmp_path):
    report = tmp_path / "r.json"
    result = run_package("consume", "consumers.hangs", "--device", "cpu", "--timeout", "1",
                         "--max-consecutive-hangs", "2", "--jobs", "1", "--report", str(report))
    assert result.returncode == 1, result.stdout + result.stderr
    found = [case for case in json.loads(report.read_text())["results"]
             if case["outcome"] != "skipped"]
    # Its from_dlpack takes no copy keyword: the copy cases (first by id)
    # are declines (TypeError), and never reach the hang.
    copies = [case for case in found if "/consumer/cpu/copy/" in case["id"]]
    assert [case["outcome"] for case in copies] == ["not_supported"] * 2
    found = [case for case in found if case not in copies]
    timeouts = [case for case in found if case["outcome"] == "timeout"]
    not_run = [case for case in found if case["outcome"] == "not_run"]
    assert len(timeouts) == 2 and len(not_run) == len(found) - 2, [c["outcome"] for c in found]
    assert "the Python library consumers.hangs hung or crashed on 2 consecutive cases" in \
        not_run[0]["message"]


def test_the_profile_says_how_the_consumer_asked(tmp_path):
    # numpy asks for at most DLPack 1.0 with every keyword: what it can be
    # offered follows from that, so the profile heads with it.
    report = tmp_path / "r.json"
    result = run_package("consume", "numpy.from_dlpack", *CPU_CELLS, "--report", str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    form = "__dlpack__(stream=None, max_version=(1, 0), dl_device=None, copy=None)"
    assert f"  asked: {form}" in result.stdout.splitlines()
    assert json.loads(report.read_text())["asked"] == [form]


@pytest.mark.parametrize("containment", CONTAINMENTS)
def test_the_worker_sees_its_own_process_in_proc(tmp_path, containment):
    # In a PID namespace the worker's /proc is that namespace's: CUDA's
    # runtime does not start where /proc/self is another pid.
    report = tmp_path / "r.json"
    result = run_package("consume", "consumers.needs_its_own_proc", "--device", "cpu", "--cell",
                         "c-order", "--report", str(report), env=containment)
    assert result.returncode == 0, result.stdout + result.stderr
    [case] = outcomes(report).values()
    assert case["exchange"] == "accepted", case["message"]


def test_each_axis_of_the_profile_reads_in_the_matrix_s_order(tmp_path):
    result = run_package("consume", "numpy.from_dlpack", "--device", "cpu", "--cell",
                         "dtype-int16", "--cell", "dtype-int8", "--cell", "dtype-bool")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "    dtype     int8+ int16+ bool+" in result.stdout.splitlines()


def test_verbose_shows_the_infos_of_cases_that_passed():
    # A view one element in is aligned to 4 bytes: DLP-ALIGN-256 is an info,
    # which only -v shows (the case passes).
    target = "numpy.arange(7, dtype=numpy.float32)[1:]"
    quiet = run_package("check", target)
    verbose = run_package("check", target, "-v")
    assert quiet.returncode == verbose.returncode == 0, verbose.stdout + verbose.stderr
    assert "DLP-ALIGN-256" not in quiet.stdout
    assert "infos (1; they never fail the gate):" in verbose.stdout.splitlines()
    assert "/producer/capsule: DLP-ALIGN-256: dl_tensor.data: data 0x" in verbose.stdout


def test_workers_start_without_jax_preallocation_unless_the_user_set_it():
    # jax takes 75% of a GPU when it starts: two jax processes of one run
    # (a worker and a contained probe) would end one in CUDA_ERROR_OUT_OF_MEMORY.
    # The EXPR gives an array only where the worker sees the variable "false".
    expression = ("numpy.ones(3) if __import__('os').environ.get("
                  "'XLA_PYTHON_CLIENT_PREALLOCATE') == 'false' else None")
    assert run_package("check", expression, "--no-consumer-probe").returncode == 0
    kept = run_package("check", expression, "--no-consumer-probe",
                       env={"XLA_PYTHON_CLIENT_PREALLOCATE": "true"})
    assert kept.returncode == 2, kept.stdout + kept.stderr
