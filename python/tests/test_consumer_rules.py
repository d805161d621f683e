"""The consumer checks judge consumers, not snapshots, by the tool's one
consumer model: a consumer that breaks one rule gets that rule alone, with
the class the profile names; a decline is never a failure (a decline whose
compact twin is accepted warns, a decline of a required feature fails); a
consumer doing it right (numpy on a float32 C-order host tensor) passes.
Every case runs contained: an abort or a hang is charged to its case, and
the next case runs in a new child."""

import pytest

from conftest import require

np = require("numpy")

import consumers  # noqa: E402


def test_a_right_consumer_passes():
    found = consumers.check(np.from_dlpack, ["c-order", "f-order", "negative-stride"])
    assert found.passed
    assert {result["outcome"] for result in found.results} == {"accepted"}
    assert all(result["deleter_calls"] == [1] for result in found.results)


@pytest.mark.parametrize("consumer,cell,outcome,status,rule", [
    (consumers.reads_reversed, "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    (consumers.returns_none, "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    (consumers.never_asks, "c-order", "wrong", "fail", "DLP-CONSUMER-CHECKSUM"),
    (consumers.accepts_anything, "major-version-2", "accepted-invalid", "fail",
     "DLP-CONSUMER-IMPORTS-UNKNOWN-MAJOR"),
    (consumers.accepts_anything, "shape-negative", "accepted-invalid", "warn",
     "DLP-CONSUMER-ACCEPTS-INVALID"),
    (consumers.leaks, "c-order", "deleter-misuse", "fail", "DLP-CONSUMER-DELETER-COUNT"),
    (consumers.deletes_twice, "c-order", "deleter-misuse", "fail", "DLP-CONSUMER-DELETER-COUNT"),
    (consumers.keeps_name, "c-order", "deleter-misuse", "fail", "DLP-PY-CONSUMER-RENAME"),
    (consumers.writes_read_only, "read-only", "wrong", "fail", "DLP-CONSUMER-WRITES-READ-ONLY"),
    (consumers.declines_odd_extent1_strides, "extent-1-strides", "declined", "warn",
     "DLP-CONSUMER-INCONSISTENT-DECLINE"),
    (consumers.refuses, "c-order", "declined", "warn", "DLP-PY-DECLINE-DEVICE-EXCEPTION"),
])
def test_each_broken_consumer_gets_its_rule_only(consumer, cell, outcome, status, rule):
    found = consumers.check(consumer, [cell])
    (result,) = found.results
    assert result["status"] == status, result
    assert result["outcome"] == outcome, result
    assert consumers.rules(result) == [rule], result
    (entry,) = found.profile
    assert (entry["outcome"], entry["status"], entry["case"]) == (outcome, status, result["id"])
    assert found.passed == (status != "fail")


def test_a_warning_fails_only_under_strict():
    cell = ["extent-1-strides"]
    assert consumers.check(consumers.declines_odd_extent1_strides, cell).passed
    assert not consumers.check(consumers.declines_odd_extent1_strides, cell, strict=True).passed


def test_the_twin_is_named_and_a_consistent_decline_is_clean():
    (result,) = consumers.check(consumers.declines_odd_extent1_strides,
                                ["extent-1-strides"]).results
    assert result["observation"]["twin"] == {"cell": "extent-1-strides~compact",
                                             "accepted": True}
    assert "extent-1-strides~compact" in result["message"]
    # The same consumer on f-order: declined for a stride that matters, no twin.
    (f_order,) = consumers.check(consumers.declines, ["f-order"]).results
    assert f_order["status"] == "not_supported" and "twin" not in f_order["observation"]


def test_a_clean_decline_is_not_supported_until_required():
    found = consumers.check(consumers.declines, ["c-order", "dtype-bool"])
    assert found.passed
    assert [result["status"] for result in found.results] == ["not_supported"] * 2
    assert [result["outcome"] for result in found.results] == ["declined"] * 2
    assert [result["decline_reason"] for result in found.results] == \
        ["BufferError (this consumer supports nothing)"] * 2
    required = consumers.check(consumers.declines, ["c-order", "dtype-bool"], require=["bool"])
    by_cell = {result["cell"]["name"]: result for result in required.results}
    assert by_cell["c-order"]["status"] == "not_supported"
    assert by_cell["dtype-bool"]["status"] == "fail"
    assert consumers.rules(by_cell["dtype-bool"]) == ["DLP-CONSUMER-REQUIRED-FEATURE"]


def test_a_dtype_declined_with_another_exception_is_only_worth_knowing():
    found = consumers.check(consumers.declines_bool_with_runtime_error, ["dtype-bool"])
    (result,) = found.results
    assert (result["status"], result["exception_type"]) == ("not_supported", "RuntimeError")
    assert [(f["rule_id"], f["severity"]) for f in result["findings"]] == \
        [("DLP-PY-DECLINE-EXCEPTION", "info")]
    assert result["observation"]["device_declined"] is False


def test_invalid_cells_of_one_struct_field_reach_a_legacy_consumer_broken():
    # Only a major version needs the versioned struct; an extent, the data
    # pointer or the device type breaks a legacy tensor as well. Host memory
    # gets them broken as USM does: a consumer taking anything is caught.
    cells = ["extent-overflow", "shape-negative", "data-null", "device-type-unknown"]
    found = consumers.check(consumers.legacy_accepts_anything, cells + ["major-version-2"])
    by_cell = {result["cell"]["name"]: result for result in found.results}
    for cell in cells:
        assert by_cell[cell]["outcome"] == "accepted-invalid", by_cell[cell]
        assert by_cell[cell]["status"] == "warn", by_cell[cell]
        assert consumers.rules(by_cell[cell]) == ["DLP-CONSUMER-ACCEPTS-INVALID"]
    assert by_cell["major-version-2"]["status"] == "not_applicable"


def test_refusing_an_invalid_tensor_passes():
    found = consumers.check(consumers.refuses, ["major-version-2"])
    assert found.passed and found.results[0]["outcome"] == "refused"


def test_an_abort_is_charged_to_its_case_and_the_run_goes_on():
    found = consumers.check(consumers.aborts_on_f_order, ["c-order", "f-order", "strided"])
    outcomes = {result["cell"]["name"]: result["outcome"] for result in found.results}
    assert outcomes == {"c-order": "accepted", "f-order": "crash", "strided": "accepted"}
    crashed = found.case("consumer/cpu/cpu/f-order")
    assert "SIGABRT" in crashed["message"] and consumers.rules(crashed) == ["DLP-PLUGIN-CRASH"]


def test_a_hang_is_charged_to_its_case_and_the_run_goes_on():
    found = consumers.check(consumers.hangs_on_f_order, ["c-order", "f-order", "strided"],
                            timeout_s=3)
    outcomes = {result["cell"]["name"]: result["outcome"] for result in found.results}
    assert outcomes == {"c-order": "accepted", "f-order": "hang", "strided": "accepted"}


def test_unknown_features_devices_and_cells_are_usage_errors():
    import dlpack_usm
    for keywords in ({"require": ["purple"]}, {"devices": ["nowhere"]}, {"cells": ["nothing"]}):
        with pytest.raises(dlpack_usm.BridgeError) as raised:
            dlpack_usm.check_consumer(np.from_dlpack, **keywords)
        assert raised.value.exit_code == 2
