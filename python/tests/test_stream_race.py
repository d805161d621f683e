"""The stream contract under test (issue 27): `python3 -m dlpack_usm check`
of an array whose write is still in flight reads it on the stream or queue
it passed, at once, and again once the device is idle. A producer that
hands out its array before the write is ordered before the consumer's work
is caught (DLP-PY-STREAM-RACE, "stale data in N of M attempts"); its twin
that waits is not, and its clean run says "no race observed", never that
it synchronises. SYCL runs here (dpnp on the Intel CPU device); CUDA on a
machine with an NVIDIA GPU, cupy, torch and jax (scripts/check_cuda_machine.sh),
skipped with the reason elsewhere."""

import subprocess
import sys

import pytest

from conftest import require

import engine_runs

RACE = "DLP-PY-STREAM-RACE"


def check(*expressions, attempts, tmp_path):
    """The producers `expressions` checked in one run of the command line's
    engine (the consumer probe off), `attempts` requests a way of asking."""
    arguments = [word for expression in expressions for word in ("--python-producer", expression)]
    found = engine_runs.check(*arguments, "--no-consumer-probe", "--stream-attempts",
                              str(attempts), tmp_path=tmp_path)
    assert found.result.returncode in (0, 1), found.result.stdout + found.result.stderr
    return found


def races(found):
    return [item for item in found.findings if item["rule_id"] == RACE]


def stream_notes(found):
    return [note for note in found.notes if note.startswith(("stream=", "dl_device="))]


def cuda_devices():
    cupy = pytest.importorskip("cupy", reason="the CUDA stream checks need cupy and a CUDA "
                                              "device (the GPU machine)")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # no driver or no device: CUDARuntimeError
        pytest.skip(f"cupy sees no CUDA device ({error})")
    if count == 0:
        pytest.skip("cupy sees no CUDA device")
    return count


# SYCL: dpnp on this machine's SYCL device.

LATE = "sycl_producers.LateSyclWrite(wait=False)"
WAITS = "sycl_producers.LateSyclWrite(wait=True)"


@pytest.fixture(scope="module")
def late_sycl(tmp_path_factory):
    require("dpnp")
    return check(LATE, WAITS, attempts=8, tmp_path=tmp_path_factory.mktemp("late"))


def test_a_sycl_producer_that_skips_the_wait_is_caught(late_sycl):
    found = late_sycl.of(LATE)
    assert races(found) and found.step("stream-race")["status"] == "fail", found.notes
    assert all(" attempts: read on " in item["message"] for item in races(found))
    assert any("stale data in " in item["message"] and " of 8 attempts" in item["message"]
               for item in races(found))
    # Its host copy (dl_device=kDLCPU) is handed out before the copy finished.
    assert "DLP-PY-STREAM-CPU-SYNC" in found.fired()


def test_its_twin_that_waits_is_not_and_says_no_race_was_observed(late_sycl):
    found = late_sycl.of(WAITS)
    assert races(found) == [], found.findings
    notes = stream_notes(found)
    assert any(note.startswith("stream=<an out-of-order dpctl.SyclQueue of the tool>: no race "
                               "observed in 8 attempts") for note in notes), notes
    assert not any("synchronis" in note and "no race" not in note for note in notes)


def test_dpnp_arrays_get_a_result_for_every_way_of_asking(tmp_path):
    require("dpnp")
    found = check("dpnp.arange(1024, dtype=dpnp.float32)", attempts=4, tmp_path=tmp_path)
    found = found.of("dpnp.arange(1024, dtype=dpnp.float32)")
    labels = [note.split(":")[0] for note in stream_notes(found)]
    labels += [item["message"].removeprefix("__dlpack__: ").split(":")[0]
               for item in races(found)]
    for asked in ("stream=<an out-of-order dpctl.SyclQueue of the tool>",
                  "stream=<an in-order dpctl.SyclQueue of the tool>", "stream=None",
                  "dl_device=(kDLCPU, 0), stream=None"):
        assert any(label.startswith(asked) for label in labels), (asked, labels)


def test_stream_attempts_must_be_a_count():
    result = subprocess.run([sys.executable, "-m", "dlpack_usm", "check", "--stream-attempts",
                             "-1", "numpy.arange(3)"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "is not a number of attempts" in result.stderr


# CUDA: the GPU machine.

def test_a_cuda_producer_that_skips_the_wait_is_caught(tmp_path):
    cuda_devices()
    found = check("cuda_producers.LateWrite(wait=False)", attempts=20, tmp_path=tmp_path)
    found = found.of("cuda_producers.LateWrite(wait=False)")
    assert races(found) and found.step("stream-race")["status"] == "fail", found.notes
    # The tool's own stream: nothing but the producer's wait orders it.
    assert any("stream=0x" in item["message"] for item in races(found)), races(found)


def test_a_cuda_producer_that_waits_is_never_caught(tmp_path):
    cuda_devices()
    found = check("cuda_producers.LateWrite(wait=True)", attempts=20, tmp_path=tmp_path)
    found = found.of("cuda_producers.LateWrite(wait=True)")
    assert races(found) == [], found.findings
    assert any("no race observed in 20 attempts" in note for note in stream_notes(found))


@pytest.mark.parametrize("expression", [
    "torch.arange(4096., device='cuda')",
    "cupy.arange(4096, dtype=cupy.float32)",
    "jax.numpy.arange(4096.)",
])
def test_cuda_libraries_get_a_result_for_every_stream_value(expression, tmp_path):
    cuda_devices()
    pytest.importorskip(expression.split(".")[0])
    found = check(expression, attempts=4, tmp_path=tmp_path).of(expression)
    labels = [note.split(":")[0] for note in stream_notes(found)]
    labels += [item["message"].removeprefix("__dlpack__: ").split(":")[0]
               for item in races(found)]
    for asked in ("stream=0x", "stream=None", "stream=1", "stream=2", "stream=-1",
                  "dl_device=(kDLCPU, 0), stream=None"):
        assert any(label.startswith(asked) for label in labels), (asked, labels)
