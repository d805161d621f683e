"""python3 -m dlpack_usm device-ids (issue 34): one USM allocation per root
device, exported in one process by the tool, dpnp, dpnp.tensor and oneDAL's
tables where present, each device id beside SYCL's answer; a producer that
departs is named with the tensor rule it breaks, and the command exits 1."""

import json

from conftest import require, run_package

require("dpnp")


def survey(*arguments):
    result = run_package("device-ids", "--json", *arguments)
    return result, json.loads(result.stdout) if result.stdout.startswith("{") else None


def rows_of(document):
    return {row["producer"]: row for device in document["devices"] for row in device["rows"]}


def test_the_tool_dpnp_and_dpnp_tensor_agree_with_sycl_on_one_allocation():
    result, document = survey()
    assert result.returncode == 0, result.stdout + result.stderr
    assert document["devices"], "no root device with device USM"
    for device in document["devices"]:
        answer = device["sycl"]
        rows = {row["producer"]: row for row in device["rows"]}
        for name in ("dlpack-usm (the tool)", "dpnp", "dpnp.tensor"):
            assert rows[name]["state"] == "agrees", rows[name]
            assert rows[name]["exported"] == answer
        # oneDAL's tables: not installed, or a wheel without SYCL support.
        assert rows["onedal"]["state"] in ("agrees", "not available"), rows["onedal"]


def test_a_producer_that_departs_is_named_with_its_rule_and_fails():
    result, document = survey("--producer", "sycl_producers.shifted_device_id")
    assert result.returncode == 1, result.stdout + result.stderr
    row = rows_of(document)["sycl_producers.shifted_device_id"]
    assert row["state"] == "departs"
    assert row["exported"][1] == document["devices"][0]["sycl"][1] + 1
    assert {item["rule_id"] for item in row["findings"]} <= {
        "DLP-ONEAPI-DEVICE-ID-RANGE", "DLP-ONEAPI-DEVICE-ID-ROOT", "DLP-DEVICE-ID-NOT-OWNER"}
    assert row["findings"], row
    # The others keep their verdict: the departure is that producer's alone.
    assert rows_of(document)["dpnp"]["state"] == "agrees"


def test_the_text_names_each_producer_and_sums_up():
    result = run_package("device-ids")
    assert result.returncode == 0, result.stderr
    assert "SYCL's answer: kDLOneAPI:" in result.stdout
    assert "dpnp.tensor" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("device-ids: 3 agree with SYCL")


def test_the_text_fits_columns():
    result = run_package("device-ids", "--producer", "sycl_producers.shifted_device_id",
                         env={"COLUMNS": "80"})
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, result.stdout
    assert any(line.startswith("      DLP-ONEAPI-DEVICE-ID-ROOT: ") for line in lines)
