"""python3 -m dlpack_usm profile MODULE as a user runs it (it is `dlpack-usm
check --python-library MODULE`, both directions of the library in the
runner's Python workers), on real libraries (numpy, array-api-strict, dpnp
on USM) and on a namespace that exports wrongly on purpose
(wrong_namespace): each request of each cell one case of the check report,
its answer judged by the rules `check` applies, a crash or hang charged to
its case, and the exit codes of dlpack-usm (0 ok, 1 a case failed, 2
usage)."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import no_width_environment, package_environment, require, run_package

import engine_runs

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


def profile(tmp_path, module, *arguments, returncode=0):
    """The run of `profile MODULE ARGUMENTS`, which exited with `returncode`."""
    found = engine_runs.run("profile", module, *arguments, tmp_path=tmp_path)
    assert found.result.returncode == returncode, found.result.stdout + found.result.stderr
    assert found.document["schema"].startswith("dlpack-usm.report/")
    return found


def answer(found, cell, request, device="cpu"):
    """The case of the producer's answer to `request` on `cell`."""
    return found.case(f"producer/{device}/{cell}/{request}")


def test_numpy_emits_read_only_views_flagged_and_refuses_other_devices(tmp_path):
    require("numpy")
    found = profile(tmp_path, "numpy", "--device", "cpu", "--label", "ci", "--cell", "c-order",
                    "--cell", "read-only", "--cell", "broadcast", "--cell", "negative-stride",
                    "--cell", "size0-1d", "--cell", "dtype-bfloat16")
    text = found.result.stdout
    assert found.document["plugins"][0]["module"] == "numpy"
    assert text.startswith("library: numpy "), text
    assert "gate: PASSED (" in text, text
    # Both directions: the producer's answers and the consumer's cells.
    assert {case["id"].split("/")[1] for case in found.results} == {"producer", "consumer"}
    # The stream numpy.from_dlpack passed, in the report and in the text
    # (issue 27): None, on the device and memory it was offered.
    assert found.document["streams"] == [{"device": "cpu", "memory": "cpu", "passed": ["None"]}]
    assert "    streams   cpu: None" in text
    copied = answer(found, "c-order", "copy=True")
    assert (copied["outcome"], copied["status"]) == ("emitted", "pass")
    assert copied["emitted"].endswith("IS_COPIED")
    for request in ("dl_device=kDLCUDA:0", "dl_device=kDLOneAPI:0,copy=False"):
        refused = answer(found, "c-order", request)
        assert (refused["outcome"], refused["status"]) == ("refused", "not_supported")
        assert refused["exception"].startswith("BufferError: ")
    # Only stream=None for a CPU array; numpy refuses with RuntimeError (2.5:
    # ValueError, "NumPy only supports stream=None.").
    assert answer(found, "c-order", "stream=1")["exception"].startswith(
        ("RuntimeError: ", "ValueError: "))
    assert "strides [5, -1]" in answer(found, "negative-stride", "max_version=1.3")["emitted"]
    broadcast = answer(found, "broadcast", "max_version=1.3")["emitted"]
    assert "strides [0, 1]" in broadcast and broadcast.endswith("READ_ONLY")
    # A read-only buffer's view is exported READ_ONLY, and never to a DLPack
    # 0.x consumer, which could not tell (numpy raises BufferError).
    read_only = answer(found, "read-only", "max_version=1.3")
    assert read_only["emitted"].endswith("READ_ONLY")
    assert read_only["notes"] == [
        "the capsule views the read-only buffer with DLPACK_FLAG_BITMASK_READ_ONLY"]
    legacy = answer(found, "read-only", "max_version=None")
    assert legacy["outcome"] == "refused" and legacy["exception"].startswith("BufferError")
    assert legacy["place"]["off_line"] == {"axis": "max_version", "value": "None on read-only"}
    empty = answer(found, "size0-1d", "max_version=None")
    assert (empty["outcome"], empty["status"]) == ("emitted", "warn")
    assert [item["rule_id"] for item in empty["findings"]] == ["DLP-DATA-EMPTY-NOT-NULL"]
    absent = answer(found, "dtype-bfloat16", "max_version=None")
    assert (absent["outcome"], absent["status"]) == ("not-applicable", "not_supported")
    assert "the namespace has no dtype bfloat16" in absent["message"]
    assert found.case("consumer/cpu/cpu/dtype-bfloat16")["outcome"] == "declined"
    assert found.case("consumer/cpu/cpu/negative-stride")["outcome"] == "accepted"


def test_array_api_strict_folds_its_devices_into_one_cpu(tmp_path):
    require("array_api_strict")
    found = profile(tmp_path, "array_api_strict", "--device", "cpu", "--cell", "read-only",
                    "--cell", "dtype-float16")
    # Its test devices (device1, ...) all export kDLCPU:0: one column.
    (library,) = found.document["plugins"]
    named = [device["library_device"] for device in library["devices"]]
    assert any("device1" in name for name in named), named
    assert {tuple(device["dlpack_device"]) for device in library["devices"]} == {(1, 0)}
    assert found.devices() == ["cpu"]
    assert answer(found, "read-only", "max_version=1.3")["emitted"].endswith("READ_ONLY")
    assert answer(found, "dtype-float16", "max_version=None")["outcome"] == "not-applicable"
    declined = found.case("consumer/cpu/cpu/dtype-float16")
    assert (declined["outcome"], declined["exception"]) == ("declined", "TypeError")


def test_dpnp_copies_to_the_host_only_when_it_may(tmp_path, dpnp):
    # Exit 1: the copy oracle's one failure of dpnp 0.20, below.
    found = profile(tmp_path, "dpnp", "--producer-only", "--cell", "read-only", "--cell",
                    "ndim-0", "--cell", "c-order", "--label", "ci", returncode=1)
    (device,) = found.devices()
    assert device != "cpu"
    assert answer(found, "c-order", "max_version=1.3", device)["memory"] == "device-usm"
    # A copy in USM is read without the facts of the array's own allocation.
    copied = answer(found, "c-order", "copy=True", device)
    assert (copied["outcome"], copied["status"]) == ("emitted", "pass")
    assert copied["emitted"].endswith("IS_COPIED")
    host = answer(found, "c-order", "dl_device=kDLCPU:0", device)["emitted"]
    assert "kDLCPU:0" in host and host.endswith("IS_COPIED")
    refused = answer(found, "c-order", "dl_device=kDLCPU:0,copy=False", device)
    assert refused["exception"].startswith("BufferError: ")
    assert answer(found, "c-order", "stream=1", device)["exception"].startswith("TypeError: ")
    read_only = answer(found, "read-only", "max_version=None", device)
    assert read_only["outcome"] == "not-applicable" and "ValueError" in read_only["message"]
    # dpnp 0.20 exports a writable 0-d array READ_ONLY, and hands the same
    # array to a DLPack 0.x consumer, which cannot be told.
    assert answer(found, "ndim-0", "max_version=1.3", device)["emitted"].endswith("READ_ONLY")
    legacy = answer(found, "ndim-0", "max_version=None", device)
    assert legacy["status"] == "warn" and "DLP-PY-READ-ONLY-LEGACY" in legacy["message"]
    # dpnp 0.20 ignores copy=True when it hands out a legacy capsule (no
    # max_version): the array's own memory, which a consumer told it has a
    # copy writes into. With max_version=(1, 3) it copies.
    ignored = answer(found, "c-order", "copy=True,max_version=None", device)
    assert (ignored["outcome"], ignored["status"]) == ("wrong", "fail")
    assert [item["rule_id"] for item in ignored["findings"]] == ["DLP-PY-COPY-FLAG"]
    assert "returned the array's own memory" in ignored["findings"][0]["message"]
    assert [case["id"] for case in found.results if case["status"] == "fail"] == [ignored["id"]]


WRONG = ("--producer-only", "--timeout", "2", "--cell", "c-order", "--cell", "dtype-int8",
         "--cell", "broadcast")


def test_a_wrong_producer_is_judged_case_by_case_and_its_crashes_contained(tmp_path):
    require("numpy")
    found = profile(tmp_path, "wrong_namespace", *WRONG, returncode=1)
    assert "gate: FAILED (" in found.result.stdout
    expected = {("c-order", "max_version=None"): ("wrong", "warn", "DLP-PY-LEGACY-DEFAULT"),
                ("c-order", "max_version=0.8"): ("wrong", "warn", "DLP-PY-VERSION-ABOVE-MAX"),
                ("c-order", "dl_device=kDLCUDA:0,copy=False"):
                    ("wrong", "fail", "DLP-PY-DL-DEVICE-FOREIGN"),
                ("c-order", "copy=True"): ("wrong", "fail", "DLP-PY-COPY-FLAG"),
                ("c-order", "stream=1"): ("wrong", "warn", "DLP-PY-STREAM-CPU"),
                ("c-order", "stream=2"): ("crash", "crash", "DLP-PLUGIN-CRASH"),
                ("c-order", "stream=-1"): ("hang", "timeout", "DLP-PLUGIN-HANG"),
                ("dtype-int8", "max_version=None"):
                    ("emitted-invalid", "fail", "DLP-SHAPE-NEGATIVE")}
    for (cell, request), (outcome, status, rule) in expected.items():
        case = answer(found, cell, request)
        assert (case["outcome"], case["status"]) == (outcome, status), (cell, request, case)
        assert rule in [item["rule_id"] for item in case["findings"]], (cell, request, case)
    assert "signal 6" in answer(found, "c-order", "stream=2")["message"]
    # broadcast_to ends the process: every request of the cell is charged.
    broadcast = [case for case in found.results if case["cell"] == "broadcast"]
    requests = [case for case in found.results if case["cell"] == "c-order"]
    # The reference array (c-order) is asked the copy oracle's 7 cells too.
    assert (len(broadcast), len(requests)) == (18, 18 + 7)
    assert all(case["status"] == "crash" for case in broadcast)
    assert all("making broadcast: " in case["message"] for case in broadcast)
    # ... and the run went on after every crash and hang.
    assert len(found.results) == len(requests) + 2 * len(broadcast)
    assert all(case["status"] != "not_run" for case in found.results)


def test_one_crash_of_a_cell_s_setup_does_not_stop_the_library(tmp_path):
    # broadcast's crash, charged to its 18 requests, is one crash for
    # --max-consecutive-hangs (default 5): the other cells run.
    require("numpy")
    found = profile(tmp_path, "wrong_namespace", *WRONG, returncode=1)
    assert all(case["status"] != "not_run" for case in found.results), found.result.stdout


def test_a_stop_signal_ends_the_run_with_its_report(tmp_path):
    require("numpy")
    report = tmp_path / "stopped.json"
    # One worker, one cell, its cases in the order of their ids: stream=-1
    # comes after max_version=None, and never returns; stream=0, 1 and 2
    # wait behind it (and the re-runs of the failing cases after them).
    command = subprocess.Popen(
        [sys.executable, "-m", "dlpack_usm", "profile", "wrong_namespace", "--producer-only",
         "--jobs", "1", "--cell", "c-order", "--timeout", "60", "--report", str(report)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=package_environment())
    lines = tmp_path / "results.jsonl"  # one line per finished case, beside the report
    deadline = time.monotonic() + 60
    while "/c-order/max_version=None" not in (lines.read_text() if lines.exists() else ""):
        assert time.monotonic() < deadline and command.poll() is None, "max_version=None never ran"
        time.sleep(0.05)
    time.sleep(0.5)
    command.send_signal(signal.SIGTERM)
    out, err = command.communicate(timeout=60)
    assert command.returncode == 128 + signal.SIGTERM, (out, err)
    (gate,) = [line for line in out.splitlines() if line.startswith("gate: ")]
    assert gate.startswith("gate: FAILED (") and gate.endswith(", interrupted)"), out
    found = engine_runs.read_report(command, str(report), "wrong_namespace")
    assert found.document["summary"]["interrupted"] is True
    assert "consumer" not in {case["id"].split("/")[1] for case in found.results}
    stopped = {case["id"].rsplit("/", 1)[1] for case in found.results
               if case["status"] == "not_run"}
    assert {"stream=-1", "stream=0", "stream=1", "stream=2"} <= stopped, stopped
    # What finished before the signal is kept.
    assert not any(request.startswith("max_version=") for request in stopped), stopped
    assert all(case["message"] == "the run was interrupted before this case finished"
               for case in found.results if case["status"] == "not_run")


@pytest.mark.parametrize("arguments, message", [
    (["no_such_module"], "cannot import no_such_module"),
    (["json"], "json has no asarray()"),
    (["numpy", "--device", "cuda:7"], '--device "cuda:7": no device of this name'),
    (["numpy", "--cell", "no-such-cell"], '--cell "no-such-cell": no cell of this name'),
    (["numpy", "--producer-only", "--consumer-only"], "--side"),
])
def test_usage_errors_exit_2(arguments, message):
    require("numpy")
    result = run_package("profile", *arguments)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stderr


def test_the_python_manual_names_every_cell_request_axis_and_outcome(tmp_path):
    # Its options are test_command_line's; the cells, request axes and
    # producer outcomes are the engine's: the cases it lists for a library,
    # and the producer's classes of report matrix's legend.
    require("numpy")
    from dlpack_usm import _frontend
    with open(os.path.join(ROOT, "man", "dlpack-usm-python.7"), encoding="utf-8") as file:
        page = file.read().replace("\\-", "-")
    listed = subprocess.run([_frontend.binary(), "check", "--python-library", "numpy",
                             "--python", sys.executable, "--list"], capture_output=True,
                            text=True, env=package_environment(), timeout=120)
    assert listed.returncode == 0, listed.stderr
    answers = [line.split("/")[3:] for line in listed.stdout.split()
               if line.startswith("numpy/producer/")]
    assert answers, listed.stdout
    cells = {cell for cell, _ in answers}
    words = {cell for cell in cells if not cell.startswith(("dtype-", "ndim-"))}
    words |= {cell[len("dtype-"):] for cell in cells if cell.startswith("dtype-")}
    words |= {request.split("=")[0] for _, request in answers}
    profile(tmp_path, "numpy", "--device", "cpu", "--cell", "c-order")
    # No COLUMNS: the legend a row per outcome, as in a file (with a width it
    # may become a record per outcome).
    matrix = subprocess.run([_frontend.binary(), "report", "matrix",
                             str(tmp_path / "profile-report.json")],
                            capture_output=True, text=True, timeout=60,
                            env=no_width_environment())
    assert matrix.returncode == 0, matrix.stderr
    outcomes = {line.split()[1] for line in matrix.stdout.splitlines()
                if "producer:" in line and len(line.split()) > 2}
    assert {"emitted", "emitted-invalid", "refused", "wrong", "crash", "hang"} <= outcomes
    for word in sorted(words | outcomes):
        assert word in page, word
