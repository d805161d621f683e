"""The profiles committed under fixtures/profiles (reports of `python3 -m
dlpack_usm profile MODULE --label ci|gpu`, from this machine and the GPU
machine) keep the report's shape: both directions, one entry per cell of
each direction on each device, every entry the verdict of a case of the
report, and the consumer's cases judged as the tool's consumer model judges
them today. (They are profile-report/2 documents of the Python runner that
issue 33 removed: report matrix reads them as data; the entries of a
profile the engine writes are tested in C++.)"""

import glob
import json
import os

import pytest

from conftest import require

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
PROFILES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "profiles", "*.json")))


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def test_the_machines_profiles_are_committed():
    names = {os.path.basename(path) for path in PROFILES}
    assert {"numpy.json", "array_api_strict.json", "dpnp.json"} <= names


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_follows_the_schema(path):
    require("jsonschema")
    import validate_outputs
    schema = os.path.join(ROOT, "conformance", "schema", "profile-report.schema.json")
    assert validate_outputs.validate_schema(schema, [path])


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_has_both_directions_one_entry_per_cell(path):
    report = load(path)
    assert report["schema"] == "dlpack-usm.profile-report/2"
    assert report["machine"]["label"] in ("ci", "gpu")
    places = set()
    for direction in ("producer", "consumer"):
        section = report[direction]
        assert len(section["results"]) == section["summary"]["cases"] > 0
        results = {result["id"]: result for result in section["results"]}
        for entry in section["profile"]:
            place = (entry["direction"], entry["device"], entry["axis"], entry["value"])
            assert entry["direction"] == direction and place not in places, place
            places.add(place)
            result = results[entry["case"]]
            assert (entry["outcome"], entry["status"]) == (result["outcome"], result["status"])
    assert any(entry["outcome"] == "emitted" for entry in report["producer"]["profile"])


@pytest.mark.parametrize("path", PROFILES, ids=os.path.basename)
def test_a_committed_profile_is_judged_as_the_tool_judges_today(path):
    from dlpack_usm._bridge import library as bridge
    for result in load(path)["consumer"]["results"]:
        verdict = bridge.consumer_verdict(result["observation"])
        assert (verdict["outcome"], verdict["status"]) == (result["outcome"], result["status"]), \
            result["id"]

