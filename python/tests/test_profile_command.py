"""python3 -m dlpack_usm profile MODULE as a user runs it, on real libraries
(numpy, array-api-strict, dpnp on USM) and on a namespace that exports
wrongly on purpose (wrong_namespace): both directions in one report that
follows its schema, one entry per cell, each answer of __dlpack__ judged by
the rules `check` applies, a crash or hang charged to its case, and the
exit codes of dlpack-usm (0 ok, 1 a case failed, 2 usage)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import require

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(TESTS, os.pardir, os.pardir)


def run(*arguments):
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    return subprocess.run([sys.executable, "-m", "dlpack_usm", "profile", *arguments],
                          capture_output=True, text=True, env=environment, timeout=600)


def profile(tmp_path, *arguments, returncode=0):
    """The report of a run that exited with `returncode`, checked against
    the schema where jsonschema is there."""
    report = tmp_path / "profile.json"
    result = run(*arguments, "--report", str(report))
    assert result.returncode == returncode, result.stdout + result.stderr
    document = json.loads(report.read_text())
    assert document["schema"] == "dlpack-usm.profile-report/2"
    if _validator() is not None:
        assert _validator().validate_schema(
            os.path.join(ROOT, "conformance", "schema", "profile-report.schema.json"),
            [str(report)])
    return document, result.stdout


def _validator():
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return None
    sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
    import validate_outputs
    return validate_outputs


def entry(document, axis, value, direction="producer", device="cpu"):
    (found,) = [item for item in document[direction]["profile"]
                if (item["device"], item["axis"], item["value"]) == (device, axis, value)]
    return found


def results(document, cell):
    return [result for result in document["producer"]["results"] if result["cell"] == cell]


def test_numpy_emits_read_only_views_flagged_and_refuses_other_devices(tmp_path):
    require("numpy")
    document, text = profile(tmp_path, "numpy", "--device", "cpu", "--label", "ci",
                             "--cell", "read-only", "--cell", "broadcast", "--cell",
                             "negative-stride", "--cell", "size0-1d", "--cell", "dtype-bfloat16")
    assert document["library"]["name"] == "numpy" and document["machine"]["label"] == "ci"
    assert "producer: __dlpack__ on cpu" in text and "consumer: numpy.from_dlpack" in text
    assert text.rstrip().endswith("gate: PASSED")
    # The stream numpy.from_dlpack passed, in the report and in the text
    # (issue 27): None, on every device and memory kind it was offered.
    streams = document["consumer"]["streams"]
    assert streams and all(entry["passed"] == [None] for entry in streams)
    assert "consumer: the stream it passed to __dlpack__, per device and memory" in text
    assert "  cpu              cpu     stream    passed None" in text
    places = [(item["direction"], item["device"], item["axis"], item["value"])
              for direction in ("producer", "consumer") for item in document[direction]["profile"]]
    assert len(places) == len(set(places))
    # The reference array is asked every request, whatever --cell says.
    assert entry(document, "layout", "c-order")["outcome"] == "emitted"
    assert entry(document, "copy", "True")["emitted"].endswith("IS_COPIED")
    for value in ("kDLCUDA:0", "kDLOneAPI:0 copy=False"):
        refused = entry(document, "dl_device", value)
        assert (refused["outcome"], refused["status"]) == ("refused", "not_supported")
        assert refused["exception"].startswith("BufferError: ")
    # Only stream=None for a CPU array; numpy refuses with RuntimeError.
    assert entry(document, "stream", "1")["exception"].startswith("RuntimeError: ")
    assert "strides [5, -1]" in entry(document, "layout", "negative-stride")["emitted"]
    broadcast = entry(document, "layout", "broadcast")["emitted"]
    assert "strides [0, 1]" in broadcast and broadcast.endswith("READ_ONLY")
    # A read-only buffer's view is exported READ_ONLY, and never to a DLPack
    # 0.x consumer, which could not tell (numpy raises BufferError).
    assert entry(document, "read-only", "read-only")["emitted"].endswith("READ_ONLY")
    assert results(document, "read-only")[0]["notes"] == [
        "the capsule views the read-only buffer with DLPACK_FLAG_BITMASK_READ_ONLY"]
    legacy = entry(document, "max_version", "None on read-only")
    assert legacy["outcome"] == "refused" and legacy["exception"].startswith("BufferError")
    empty = entry(document, "size0", "1d")
    assert (empty["outcome"], empty["status"], empty["rule"]) == \
        ("emitted", "warn", "DLP-DATA-EMPTY-NOT-NULL")
    absent = entry(document, "dtype", "bfloat16")
    assert (absent["outcome"], absent["status"]) == ("not-applicable", "not_applicable")
    assert "the namespace has no dtype bfloat16" in absent["reason"]
    assert entry(document, "dtype", "bfloat16", "consumer")["outcome"] == "declined"
    assert entry(document, "layout", "negative-stride", "consumer")["outcome"] == "accepted"


def test_array_api_strict_folds_its_devices_into_one_cpu(tmp_path):
    require("array_api_strict")
    document, _ = profile(tmp_path, "array_api_strict", "--device", "cpu", "--cell",
                          "read-only", "--cell", "dtype-float16")
    (device,) = [item for item in document["devices"] if item.get("library_device")]
    # Its test devices (device1, ...) all export kDLCPU: one column, aliases.
    assert device["name"] == "cpu" and any("device1" in alias for alias in device["aliases"])
    assert entry(document, "read-only", "read-only")["emitted"].endswith("READ_ONLY")
    assert entry(document, "dtype", "float16")["outcome"] == "not-applicable"
    declined = entry(document, "dtype", "float16", "consumer")
    assert (declined["outcome"], declined["exception"]) == ("declined", "TypeError")


def test_dpnp_copies_to_the_host_only_when_it_may(tmp_path, dpnp):
    document, _ = profile(tmp_path, "dpnp", "--producer-only", "--cell", "read-only",
                          "--cell", "ndim-0", "--label", "ci")
    usm = [item["name"] for item in document["devices"] if "device_id" in item]
    (device,) = sorted({item["device"] for item in document["producer"]["profile"]})
    assert device in usm
    assert entry(document, "layout", "c-order", device=device)["memory"] == "device-usm"
    # A copy in USM is read without the facts of the array's own allocation.
    copied = entry(document, "copy", "True", device=device)
    assert (copied["outcome"], copied["status"]) == ("emitted", "pass")
    assert copied["emitted"].endswith("IS_COPIED")
    host = entry(document, "dl_device", "kDLCPU:0", device=device)["emitted"]
    assert "kDLCPU:0" in host and host.endswith("IS_COPIED")
    refused = entry(document, "dl_device", "kDLCPU:0 copy=False", device=device)
    assert refused["exception"].startswith("BufferError: ")
    assert entry(document, "stream", "1", device=device)["exception"].startswith("TypeError: ")
    read_only = entry(document, "read-only", "read-only", device=device)
    assert read_only["outcome"] == "not-applicable" and "ValueError" in read_only["reason"]
    # dpnp 0.20 exports a writable 0-d array READ_ONLY, and hands the same
    # array to a DLPack 0.x consumer, which cannot be told.
    assert entry(document, "ndim", "0", device=device)["emitted"].endswith("READ_ONLY")
    legacy = entry(document, "max_version", "None on ndim-0", device=device)
    assert (legacy["status"], legacy["rule"]) == ("warn", "DLP-PY-READ-ONLY-LEGACY")


def test_a_wrong_producer_is_judged_case_by_case_and_its_crashes_contained(tmp_path):
    require("numpy")
    document, text = profile(tmp_path, "wrong_namespace", "--producer-only", "--timeout", "2",
                             "--cell", "dtype-int8", "--cell", "broadcast", returncode=1)
    assert text.rstrip().endswith("gate: FAILED")
    expected = {("max_version", "None"): ("wrong", "warn", "DLP-PY-LEGACY-DEFAULT"),
                ("max_version", "0.8"): ("wrong", "warn", "DLP-PY-VERSION-ABOVE-MAX"),
                ("dl_device", "kDLCUDA:0 copy=False"):
                    ("wrong", "fail", "DLP-PY-DL-DEVICE-FOREIGN"),
                ("copy", "True"): ("wrong", "fail", "DLP-PY-COPY-FLAG"),
                ("stream", "1"): ("wrong", "warn", "DLP-PY-STREAM-CPU"),
                ("stream", "2"): ("crash", "fail", "DLP-PLUGIN-CRASH"),
                ("stream", "-1"): ("hang", "fail", "DLP-PLUGIN-HANG"),
                ("dtype", "int8"): ("emitted-invalid", "fail", "DLP-SHAPE-NEGATIVE")}
    for place, verdict in expected.items():
        found = entry(document, *place)
        assert (found["outcome"], found["status"], found["rule"]) == verdict, place
    assert "SIGABRT" in entry(document, "stream", "2")["reason"]
    # broadcast_to ends the process: every request of the cell is charged.
    broadcast = results(document, "broadcast")
    assert len(broadcast) == len(document["producer"]["requests"])
    assert all(result["outcome"] == "crash" for result in broadcast)
    assert broadcast[0]["reason"].startswith("making broadcast: ")
    # ... and the run went on after every crash and hang.
    assert all(result["outcome"] for result in document["producer"]["results"])
    assert len(document["producer"]["results"]) == 3 * len(document["producer"]["requests"])


def test_a_stop_signal_ends_the_run_with_its_report(tmp_path):
    require("numpy")
    report = tmp_path / "stopped.json"
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    command = subprocess.Popen(
        [sys.executable, "-m", "dlpack_usm", "profile", "wrong_namespace", "-v", "--report",
         str(report), "--cell", "c-order"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=environment)
    # stream=-1 comes after copy=False, and never returns.
    for line in command.stderr:
        if line.startswith("producer/cpu/c-order/copy=False: "):
            break
    time.sleep(0.5)
    command.send_signal(signal.SIGTERM)
    out, _ = command.communicate(timeout=60)
    assert command.returncode == 128 + signal.SIGTERM
    assert out.rstrip().endswith("gate: FAILED (interrupted by SIGTERM)")
    document = json.loads(report.read_text())
    assert "consumer" not in document and document["producer"]["summary"]["interrupted"]
    stopped = [result for result in document["producer"]["results"]
               if result["status"] == "not_run"]
    assert [result["request"]["id"] for result in stopped] == \
        ["stream=-1", "stream=0", "stream=1", "stream=2"]
    assert all(result["interrupted_by"] == "SIGTERM" for result in stopped)


@pytest.mark.parametrize("arguments, message", [
    (["no_such_module"], "cannot import no_such_module"),
    (["json"], "json has no asarray()"),
    (["numpy", "--device", "cuda:7"], "no device named cuda:7"),
    (["numpy", "--cell", "no-such-cell"], "no cell named no-such-cell"),
    (["numpy", "--producer-only", "--consumer-only"], "not allowed with"),
])
def test_usage_errors_exit_2(arguments, message):
    require("numpy")
    result = run(*arguments)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stderr


def test_the_python_manual_names_every_cell_request_axis_and_outcome():
    # Its options are test_command_line's; the cells and outcomes are these.
    from dlpack_usm.profile import _cells, _report, _requests
    with open(os.path.join(ROOT, "man", "dlpack-usm-python.7"), encoding="utf-8") as file:
        page = file.read().replace("\\-", "-")
    names = [cell.name for cell in _cells.cells() if not cell.name.startswith(("dtype-", "ndim-"))]
    words = names + [cell.value for cell in _cells.cells() if cell.axis == "dtype"] + \
        [request.axis for request in _requests.REQUESTS] + list(_report.PRODUCER_OUTCOMES)
    for word in words:
        assert word in page, word
