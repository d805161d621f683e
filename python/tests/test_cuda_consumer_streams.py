"""The stream a CUDA consumer passes, and whether it reads there
(consumer/_cuda_stream.py): `python3 -m dlpack_usm consume` offers, on every
CUDA device, a vector whose write is still in flight, records the streams
the consumer passes, and reads what it returned once the device is idle. A
consumer that passes 0 is caught (DLP-PY-CONSUMER-STREAM-ZERO), one that
passes None and then copies on a stream of its own reads stale elements
(DLP-PY-CONSUMER-STREAM-READ), one that copies on the stream it passes does
not. Needs cupy and a CUDA device (the GPU machine); skipped, saying why,
elsewhere."""

import pytest

cupy = pytest.importorskip("cupy", reason="the CUDA consumer stream case needs cupy and a "
                                          "CUDA device (the GPU machine)")
try:
    DEVICES = cupy.cuda.runtime.getDeviceCount()
except Exception as error:  # no driver or no device
    pytest.skip(f"cupy sees no CUDA device ({error})", allow_module_level=True)
if DEVICES == 0:
    pytest.skip("cupy sees no CUDA device", allow_module_level=True)

import engine_runs  # noqa: E402


def stream_case(consumer, tmp_path):
    """The stream case of `consume CONSUMER --device cuda:0`, as the tests
    read a case (engine_runs.view), and the report."""
    found = engine_runs.run("consume", consumer, "--device", "cuda:0", tmp_path=tmp_path)
    assert found.result.returncode in (0, 1), found.result.stderr
    (case,) = [item for item in found.results
               if any(line["axis"] == "stream" for line in item["place"]["lines"])]
    return case, found.document


def rule_ids(case):
    return sorted(item["rule_id"] for item in case["findings"])


def test_a_consumer_that_passes_0_is_caught(tmp_path):
    case, document = stream_case("consumers.cuda_passes_zero", tmp_path)
    assert rule_ids(case) == ["DLP-PY-CONSUMER-STREAM-ZERO"], case["message"]
    assert case["status"] == "fail"
    # The report says each stream as the consumer passed it, as text.
    assert {"device": "cuda:0", "memory": "cuda", "passed": ["0"]} in document["streams"]


def test_a_consumer_that_reads_on_another_stream_than_it_passed_is_caught(tmp_path):
    case, _ = stream_case("consumers.cuda_reads_on_its_own_stream", tmp_path)
    assert rule_ids(case) == ["DLP-PY-CONSUMER-STREAM-READ"], case["message"]
    assert "stale elements in " in case["findings"][0]["message"]


def test_a_consumer_that_reads_on_the_stream_it_passes_is_not(tmp_path):
    case, document = stream_case("consumers.cuda_copies_on_the_stream_it_passes", tmp_path)
    assert rule_ids(case) == [], case["message"]
    assert "no stale read observed in 4 attempts" in case["message"]
    (entry,) = [item for item in document["streams"] if item["device"] == "cuda:0"]
    # A stream of cupy's own: its handle, never 0, 1 (legacy) or 2 (per-thread).
    assert entry["passed"] and all(value.isdigit() and int(value) > 2
                                   for value in entry["passed"])


@pytest.mark.parametrize("consumer", ["torch.from_dlpack", "cupy.from_dlpack",
                                      "jax.dlpack.from_dlpack"])
def test_real_consumers_get_a_stream_line(consumer, tmp_path):
    pytest.importorskip(consumer.split(".")[0])
    case, document = stream_case(consumer, tmp_path)
    assert case["message"].startswith(("passed ", "declined ")), case["message"]
    assert any(entry["device"] == "cuda:0" for entry in document["streams"])


def test_a_consumer_that_passes_a_stream_of_another_device_is_warned(tmp_path):
    if DEVICES < 2:
        pytest.skip("a stream of another device needs two CUDA devices")
    case, _ = stream_case("consumers.cuda_passes_a_stream_of_device_1", tmp_path)
    assert "DLP-PY-CONSUMER-STREAM-DEVICE" in rule_ids(case), case["message"]
