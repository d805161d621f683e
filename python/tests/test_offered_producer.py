"""The producer object consumers are given honours __dlpack__ as the array
API standard words it: a legacy capsule without max_version or below 1.0,
a versioned one from 1.0 on (never newer than asked); another dl_device is
a BufferError unless a copy is allowed (then IS_COPIED is set); copy=False
never copies; every call is recorded. Its capsules free their tensor when
nobody consumed them, and the deleter's calls are counted per tensor."""

import gc

import pytest

from conftest import require

np = require("numpy")

from dlpack_usm._bridge import capsules, library  # noqa: E402
from dlpack_usm.consumer import _offers  # noqa: E402
from dlpack_usm.consumer._offered_producer import OfferedProducer  # noqa: E402


def described(capsule):
    name = capsules.capsule_name(capsule)
    return library.call_inspect(capsules.capsule_pointer(capsule, name), name, {})["capsule"]


def deleter_calls(producer):
    return [_offers.state(info["handle"])["deleter_calls"] for info in producer.offers]


@pytest.mark.parametrize("max_version,name,version", [
    (None, "dltensor", None),
    ((0, 8), "dltensor", None),
    ((1, 0), "dltensor_versioned", {"major": 1, "minor": 0}),
    ((1, 2), "dltensor_versioned", {"major": 1, "minor": 2}),
    ((1, 9), "dltensor_versioned", {"major": 1, "minor": 3}),
    ((2, 0), "dltensor_versioned", {"major": 1, "minor": 3}),
])
def test_max_version_picks_the_capsule(max_version, name, version):
    producer = OfferedProducer("c-order", "cpu")
    capsule = producer.__dlpack__(max_version=max_version)
    assert capsules.capsule_name(capsule) == name
    assert described(capsule).get("version") == version
    assert producer.calls == [{"method": "__dlpack__", "stream": None,
                               "max_version": None if max_version is None else list(max_version),
                               "dl_device": None, "copy": None}]
    del capsule
    producer.capsules.clear()  # the producer keeps each capsule to see its name afterwards
    gc.collect()
    # Never consumed: the capsule's destructor called the deleter, once.
    assert deleter_calls(producer) == [1]


def test_another_device_without_a_copy_is_a_buffer_error():
    producer = OfferedProducer("c-order", "cpu")
    with pytest.raises(BufferError):
        producer.__dlpack__(max_version=(1, 0), dl_device=(14, 0), copy=False)
    with pytest.raises(BufferError):
        producer.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    assert producer.offers == []


def test_a_copy_to_the_host_says_is_copied():
    producer = OfferedProducer("c-order", "cpu")
    assert producer.__dlpack_device__() == (1, 0)
    capsule = producer.__dlpack__(max_version=(1, 3), copy=True)
    assert "IS_COPIED" in described(capsule)["flags"]
    plain = producer.__dlpack__(max_version=(1, 3), copy=False)
    assert described(plain)["flags"] in ("0", 0)


def test_a_stream_for_host_memory_is_noted():
    producer = OfferedProducer("c-order", "cpu")
    producer.__dlpack__(max_version=(1, 0), stream=1)
    assert "stream=1" in producer.notes[0]


def test_a_cell_newer_than_asked_is_declined_with_buffer_error():
    producer = OfferedProducer("dtype-float8_e5m2", "cpu")
    with pytest.raises(BufferError, match="from DLPack 1.1 on"):
        producer.__dlpack__(max_version=(1, 0))
    assert producer.consumer_too_old and producer.untestable is None


def test_the_matrix_names_each_cells_twin_and_the_one_legend():
    # A cell whose strides or data address nothing has a compact twin the
    # bridge offers as well; the profile's legend comes from the tool.
    matrix = _offers.matrix()
    cells = {cell["name"]: cell for cell in matrix["cells"]}
    assert cells["extent-1-strides"]["twin"] == "extent-1-strides~compact"
    assert cells["size0-null-data"]["twin"] == "size0-null-data~compact"
    assert cells["legacy"]["twin"] == "legacy~compact"
    assert cells["f-order"]["twin"] is None and cells["c-order"]["twin"] is None
    assert cells["major-version-2"]["unknown_major"] is True
    assert cells["data-null"]["broken_rule"] == "DLP-DATA-NULL"
    assert [entry["symbol"] for entry in matrix["classes"]] == list("+-rWICHD")
    capsule, info = _offers.offer("extent-1-strides~compact", "cpu")
    assert info["shape"] == [3, 1, 5] and capsule is not None
    del capsule
    _offers.release(info["handle"])

def test_the_bridge_offers_what_the_matrix_lists():
    matrix = _offers.matrix()
    names = [cell["name"] for cell in matrix["cells"]]
    # The axes of matrix/consumer_matrix.cpp, one definition for C++ and Python.
    for name in ("legacy", "c-order", "dtype-bool", "dtype-bfloat16", "dtype-float4_e2m1fn",
                 "negative-stride", "broadcast", "size0-null-data", "scalar-byte-offset",
                 "ndim-40", "read-only", "is-copied", "major-version-2", "strides-null-1.2"):
        assert name in names
    assert {cell["axis"] for cell in matrix["cells"]} == {"version", "dtype", "layout",
                                                          "invalid"}
    for cell in matrix["cells"]:
        if cell["axis"] == "invalid":
            continue
        capsule, info = _offers.offer(cell["name"], "cpu", version=tuple(
            int(part) for part in cell["version"].split(".")))
        assert info["device"] == [1, 0]
        assert bytes.fromhex(info["elements"]) or 0 in cell["shape"] or cell["null_data"]
        del capsule
        gc.collect()
        assert _offers.state(info["handle"])["deleter_calls"] == 1
        _offers.release(info["handle"])


def test_a_cell_the_tool_cannot_offer_is_no_finding_about_the_consumer():
    # No root device 99: the producer raises BufferError and says why, so
    # the case is not applicable rather than the consumer's refusal.
    producer = OfferedProducer("c-order", "device", device_id=99)
    with pytest.raises(BufferError, match="could not offer"):
        producer.__dlpack__(max_version=(1, 0))
    assert "device_id 99" in producer.untestable
