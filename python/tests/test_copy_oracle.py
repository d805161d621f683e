"""The copy oracle (issue 34): every cell of copy x dl_device x max_version
has the answer the array API standard expects, a profile shows each as a row
with what was expected and what came back, and consumers are held to
from_dlpack's copy keyword. The producers that break one copy rule each are
in test_protocol_rules.py (FAILING); numpy keeps them all."""

import os
import subprocess

import pytest

from conftest import no_width_environment, require

np = require("numpy")

import consumers  # noqa: E402
import engine_runs  # noqa: E402
from dlpack_usm._bridge import dlpack  # noqa: E402
from dlpack_usm.producer import _copy_oracle  # noqa: E402

CPU = (dlpack.device_type("kDLCPU"), 0)
CUDA = (dlpack.device_type("kDLCUDA"), 0)
ONEAPI = (dlpack.device_type("kDLOneAPI"), 0)


def test_every_cell_of_the_grid_has_an_expected_answer():
    assert set(_copy_oracle.EXPECTED) == set(_copy_oracle.GRID)
    assert len(_copy_oracle.GRID) == 9
    # check asks every cell but the base request, which the others are compared with.
    assert (None, "unset") not in _copy_oracle.CHECKED and len(_copy_oracle.CHECKED) == 8


@pytest.mark.parametrize("own,another", [(CPU, CUDA), (ONEAPI, CPU), (CUDA, CPU)])
def test_another_device_is_the_host_for_a_device_array_and_cuda_for_a_host_array(own, another):
    assert _copy_oracle.another_device(own) == another
    assert _copy_oracle.keywords(True, "another", own, (1, 3)) == {
        "max_version": (1, 3), "dl_device": another, "copy": True}
    assert _copy_oracle.keywords(None, "own", own, None) == {"dl_device": own}


def profile_rows(tmp_path):
    found = engine_runs.run("profile", "numpy", "--device", "cpu", "--cell", "c-order",
                            "--side", "producer", tmp_path=tmp_path)
    assert found.result.returncode == 0, found.result.stdout + found.result.stderr
    return {case["id"].split("/c-order/")[1]: case for case in found.results
            if "/producer/cpu/c-order/" in case["id"]}


def test_the_profile_shows_the_grid_as_rows_with_what_was_expected(tmp_path):
    rows = profile_rows(tmp_path)
    oracle = {name: case for name, case in rows.items() if name.startswith("copy=")}
    assert set(oracle) == {
        "copy=True", "copy=False", "copy=True,dl_device=own", "copy=False,dl_device=own",
        "copy=None,dl_device=another", "copy=True,dl_device=another",
        "copy=False,dl_device=another", "copy=True,max_version=None",
        "copy=False,max_version=None"}
    for name, case in oracle.items():
        assert [line["axis"] for line in case["place"]["lines"]] == ["copy"], case
        (note,) = [text for text in case["notes"] if text.startswith("copy oracle: ")]
        assert "expected " in note and "; answered " in note, note
        assert case["status"] in ("pass", "not_supported"), case
    # numpy copies on copy=True (IS_COPIED, other memory) and declines the
    # CUDA device a host array is asked for with BufferError.
    assert "answered other memory on (1, 0) with IS_COPIED" in \
        oracle["copy=True,dl_device=own"]["notes"][0]
    assert oracle["copy=True,dl_device=another"]["exception"].startswith("BufferError")
    assert "answered the array's own memory on (1, 0)" in oracle["copy=False"]["notes"][0]


def test_report_matrix_shows_the_oracle_rows(tmp_path):
    from dlpack_usm import _frontend
    profile_rows(tmp_path)
    matrix = subprocess.run([_frontend.binary(), "report", "matrix",
                             os.path.join(str(tmp_path), "profile-report.json")],
                            capture_output=True, text=True, timeout=120,
                            env=no_width_environment())
    assert matrix.returncode == 0, matrix.stderr
    lines = matrix.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("producer   copy"))
    rows = {line.split("host")[0].split("copy", 1)[-1].strip() for line in lines[start:start + 9]}
    assert {"True dl_device=own", "False dl_device=another", "True max_version=None"} <= rows


@pytest.fixture(scope="module")
def consumed(tmp_path_factory):
    names = ["numpy.from_dlpack", "ignores_copy", "copies_always"]
    return consumers.check(names, {name: ["True", "False"] for name in names},
                           tmp_path=tmp_path_factory.mktemp("copy"))


def copy_cases(found, name):
    judged = found.of(name if "." in name else f"consumers.{name}")
    return {case["id"].rsplit("/", 1)[1]: case for case in judged.results
            if "/consumer/cpu/copy/" in case["id"]}


def test_numpy_keeps_from_dlpacks_copy_keyword(consumed):
    cases = copy_cases(consumed, "numpy.from_dlpack")
    assert {name: case["status"] for name, case in cases.items()} == \
        {"True": "pass", "False": "pass"}
    assert cases["True"]["message"] == "asked __dlpack__(copy=True)"


@pytest.mark.parametrize("name,copy,rule", [
    ("ignores_copy", "True", "DLP-PY-CONSUMER-COPY-SHARED"),
    ("copies_always", "False", "DLP-PY-CONSUMER-NO-COPY-COPIED")])
def test_a_consumer_that_breaks_the_copy_keyword_gets_its_rule_alone(consumed, name, copy, rule):
    cases = copy_cases(consumed, name)
    assert consumers.rules(cases[copy]) == [rule], cases[copy]
    assert cases[copy]["status"] == "fail"
    other = "False" if copy == "True" else "True"
    assert cases[other]["status"] == "pass", cases[other]
