"""The consumer checks judge consumers, not snapshots, by the tool's one
consumer model: a consumer that breaks one rule gets that rule alone, with
the class the profile names; a decline is never a failure (a decline whose
compact twin is accepted warns, a decline of a required feature fails); a
consumer doing it right (numpy on a float32 C-order host tensor) passes.
Every case runs contained in the engine's workers: an abort or a hang is
charged to its case, and the next case runs in a new worker."""

import os
import pathlib
import signal
import subprocess

import pytest

from conftest import require, run_package

np = require("numpy")

import consumers  # noqa: E402

BROKEN = [
    ("reads_reversed", "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    ("returns_none", "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    ("never_asks", "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    ("accepts_anything", "major-version-2", "accepted-invalid", "fail",
     "DLP-CONSUMER-IMPORTS-UNKNOWN-MAJOR"),
    ("accepts_anything", "shape-negative", "accepted-invalid", "warn",
     "DLP-CONSUMER-ACCEPTS-INVALID"),
    ("leaks", "c-order", "deleter-misuse", "fail", "DLP-CONSUMER-DELETER-COUNT"),
    ("deletes_twice", "c-order", "deleter-misuse", "fail", "DLP-CONSUMER-DELETER-COUNT"),
    ("keeps_name", "c-order", "deleter-misuse", "fail", "DLP-PY-CONSUMER-RENAME"),
    ("writes_read_only", "read-only", "wrong", "fail", "DLP-CONSUMER-WRITES-READ-ONLY"),
    ("declines_odd_extent1_strides", "extent-1-strides", "declined", "warn",
     "DLP-CONSUMER-INCONSISTENT-DECLINE"),
    ("refuses", "c-order", "declined", "warn", "DLP-PY-DECLINE-DEVICE-EXCEPTION"),
]
INVALID_OF_ONE_FIELD = ["extent-overflow", "shape-negative", "data-null", "device-type-unknown"]
# Every consumer of this file and the cells its tests look at: one run.
JUDGED = {
    "numpy.from_dlpack": ["c-order", "f-order", "negative-stride"],
    "reads_reversed": ["c-order"],
    "returns_none": ["c-order"],
    "never_asks": ["c-order"],
    "accepts_anything": ["major-version-2", "shape-negative"],
    "leaks": ["c-order"],
    "deletes_twice": ["c-order"],
    "keeps_name": ["c-order"],
    "writes_read_only": ["read-only"],
    "declines_odd_extent1_strides": ["extent-1-strides"],
    "refuses": ["c-order", "major-version-2"],
    "declines": ["c-order", "dtype-bool", "f-order"],
    "declines_bool_with_runtime_error": ["dtype-bool"],
    "legacy_accepts_anything": INVALID_OF_ONE_FIELD + ["major-version-2"],
    "aborts_on_f_order": ["c-order", "f-order", "strided"],
    "hangs_on_f_order": ["c-order", "f-order", "strided"],
}


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    return consumers.check(list(JUDGED), JUDGED, "--timeout", "3",
                           tmp_path=tmp_path_factory.mktemp("judged"))


def of(judged, name):
    return judged.of(name if "." in name else f"consumers.{name}")


def by_cell(found, cells):
    return {case["cell"]: case for case in found.results if case["cell"] in cells}


def test_a_right_consumer_passes(judged):
    found = by_cell(of(judged, "numpy.from_dlpack"), JUDGED["numpy.from_dlpack"])
    assert {case["outcome"] for case in found.values()} == {"accepted"}
    assert {case["status"] for case in found.values()} == {"pass"}
    assert all(case["deleter_calls"] == [1] for case in found.values())


@pytest.mark.parametrize("name,cell,outcome,status,rule", BROKEN)
def test_each_broken_consumer_gets_its_rule_only(judged, name, cell, outcome, status, rule):
    found = of(judged, name)
    (result,) = by_cell(found, [cell]).values()
    assert result["status"] == status, result
    assert result["outcome"] == outcome, result
    assert consumers.rules(result) == [rule], result
    (entry,) = [entry for entry in judged.document["profile"] if entry["case"] == result["id"]]
    assert (entry["outcome"], entry["status"]) == (outcome, status)
    # A failure is a regression of the gate; a warning passes it.
    assert (result["verdict"] == "ok") == (status != "fail")


def test_a_warning_fails_only_under_strict(tmp_path):
    cell = ["extent-1-strides"]
    assert consumers.check(["declines_odd_extent1_strides"], cell, tmp_path=tmp_path).passed
    assert not consumers.check(["declines_odd_extent1_strides"], cell, "--strict",
                               tmp_path=tmp_path).passed


def test_the_twin_is_named_and_a_consistent_decline_is_clean(judged):
    (result,) = by_cell(of(judged, "declines_odd_extent1_strides"),
                        ["extent-1-strides"]).values()
    assert result["observation"]["twin"] == {"cell": "extent-1-strides~compact",
                                             "accepted": True}
    assert "extent-1-strides~compact" in result["message"]
    # The consumer that declines everything, on f-order: a decline with no
    # twin to compare with (f-order's strides matter).
    (f_order,) = by_cell(of(judged, "declines"), ["f-order"]).values()
    assert f_order["status"] == "not_supported" and "twin" not in f_order["observation"]


def test_a_clean_decline_is_not_supported_until_required(judged, tmp_path):
    found = by_cell(of(judged, "declines"), ["c-order", "dtype-bool"])
    assert [found[cell]["status"] for cell in ("c-order", "dtype-bool")] == ["not_supported"] * 2
    assert [found[cell]["outcome"] for cell in ("c-order", "dtype-bool")] == ["declined"] * 2
    assert [found[cell]["decline_reason"] for cell in ("c-order", "dtype-bool")] == \
        ["BufferError (this consumer supports nothing)"] * 2
    required = consumers.check(["declines"], ["c-order", "dtype-bool"], "--require", "bool",
                               tmp_path=tmp_path)
    assert not required.passed
    cells = by_cell(required, ["c-order", "dtype-bool"])
    assert cells["c-order"]["status"] == "not_supported"
    assert cells["dtype-bool"]["status"] == "fail"
    assert consumers.rules(cells["dtype-bool"]) == ["DLP-CONSUMER-REQUIRED-FEATURE"]


def test_a_dtype_declined_with_another_exception_is_only_worth_knowing(judged):
    (result,) = by_cell(of(judged, "declines_bool_with_runtime_error"), ["dtype-bool"]).values()
    assert (result["status"], result["exception"]) == ("not_supported", "RuntimeError")
    assert [(f["rule_id"], f["severity"]) for f in result["findings"]] == \
        [("DLP-PY-DECLINE-EXCEPTION", "info")]
    assert result["observation"]["device_declined"] is False


def test_invalid_cells_of_one_struct_field_reach_a_legacy_consumer_broken(judged):
    # Only a major version needs the versioned struct; an extent, the data
    # pointer or the device type breaks a legacy tensor as well. Host memory
    # gets them broken as USM does: a consumer taking anything is caught.
    found = by_cell(of(judged, "legacy_accepts_anything"),
                    INVALID_OF_ONE_FIELD + ["major-version-2"])
    for cell in INVALID_OF_ONE_FIELD:
        assert found[cell]["outcome"] == "accepted-invalid", found[cell]
        assert found[cell]["status"] == "warn", found[cell]
        assert consumers.rules(found[cell]) == ["DLP-CONSUMER-ACCEPTS-INVALID"]
    # A major version cannot be offered in a legacy capsule: not applicable.
    major = found["major-version-2"]
    assert (major["outcome"], major["status"]) == ("not-applicable", "not_supported"), major


def test_refusing_an_invalid_tensor_passes(judged):
    (result,) = by_cell(of(judged, "refuses"), ["major-version-2"]).values()
    assert (result["outcome"], result["status"]) == ("refused", "pass")


def test_an_abort_is_charged_to_its_case_and_the_run_goes_on(judged):
    found = by_cell(of(judged, "aborts_on_f_order"), ["c-order", "f-order", "strided"])
    assert {cell: case["outcome"] for cell, case in found.items()} == \
        {"c-order": "accepted", "f-order": "crash", "strided": "accepted"}
    crashed = found["f-order"]
    assert crashed["status"] == "crash"
    assert "the case died on signal 6 (Aborted)" in crashed["message"]
    # ... in the call, with the tensor it was offered.
    assert 'in "aborts_on_f_order(x), x offering float32 shape [3, 5] strides [1, 3] ' \
        'byte_offset 0, kDLCPU:0 (host memory), DLPack' in crashed["message"], crashed["message"]
    assert consumers.rules(crashed) == ["DLP-PLUGIN-CRASH"]


def test_a_crash_gives_a_snippet_that_crashes_alone(judged):
    # The snippet runs the consumer on the same tensor in a plain
    # interpreter (dlpack_usm.repro): the same abort, outside the tool.
    crashed = by_cell(of(judged, "aborts_on_f_order"), ["f-order"])["f-order"]
    snippet = crashed["snippet"]
    assert "from dlpack_usm.repro import consumer, offered" in snippet, snippet
    assert "offered('f-order', 'cpu', 0)" in snippet, snippet
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(__file__).parent))
    alone = subprocess.run(["sh", "-c", snippet], env=env, capture_output=True, text=True,
                           timeout=120)
    assert alone.returncode in (-signal.SIGABRT, 128 + signal.SIGABRT), alone
    assert "Fatal Python error: Aborted" in alone.stderr, alone.stderr
    # Where nothing crashed there is nothing to paste: no snippet shown.
    accepted = by_cell(of(judged, "aborts_on_f_order"), ["c-order"])["c-order"]
    assert "standalone" not in accepted["message"]


def test_a_hang_is_charged_to_its_case_and_the_run_goes_on(judged):
    found = by_cell(of(judged, "hangs_on_f_order"), ["c-order", "f-order", "strided"])
    assert {cell: case["outcome"] for cell, case in found.items()} == \
        {"c-order": "accepted", "f-order": "hang", "strided": "accepted"}
    assert found["f-order"]["status"] == "timeout"
    assert found["f-order"]["message"].startswith("no result within 3000 ms")


@pytest.mark.parametrize("option,value", [("--require", "purple"), ("--device", "nowhere"),
                                          ("--cell", "nothing")])
def test_unknown_features_devices_and_cells_are_usage_errors(option, value):
    result = run_package("consume", "numpy.from_dlpack", option, value)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("dlpack-usm: error: "), result.stderr
    assert value in result.stderr
