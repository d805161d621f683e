"""The Python consumer checks and `check --consumer` judge alike: the
observation table (tests/data/consumer_observations.json) fed through the
bridge, as `consume` feeds what it observed, gives the verdicts the C++
judge gives it (tests/unit/matrix/consumer_verdict_test.cpp reads the same
table)."""

import json
import pathlib

import pytest

from dlpack_usm._bridge import library

TABLE = pathlib.Path(__file__).resolve().parents[2] / "tests/data/consumer_observations.json"
ROWS = json.loads(TABLE.read_text())["observations"]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["name"])
def test_the_bridge_judges_each_observation_as_the_table_says(row):
    verdict = library.consumer_verdict(row["observation"])
    expect = row["expect"]
    assert (verdict["outcome"], verdict["status"]) == (expect["outcome"], expect["status"])
    assert [finding["rule_id"] for finding in verdict["findings"]] == expect["rules"]


def test_a_malformed_observation_is_a_usage_error():
    import dlpack_usm
    with pytest.raises(dlpack_usm.BridgeError) as raised:
        library.consumer_verdict({"cell": "c-order", "action": "slept"})
    assert raised.value.exit_code == 2
