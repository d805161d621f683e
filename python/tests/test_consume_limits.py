"""`python3 -m dlpack_usm consume` in a CI log, as `dlpack-usm check` runs it
(the one runner): with stderr not a terminal a status line comes at the
interval (DLPACK_USM_STATUS_INTERVAL_S), also while a case hangs, and
--max-failures ends the run after that many failing cases, the rest not_run
with the reason, the report written and the gate failed (exit 1)."""

import json
import re

from conftest import require, run_package

np = require("numpy")

CELLS = ("--device", "cpu", "--cell", "c-order", "--cell", "dtype-bool", "--cell", "f-order",
         "--timeout", "2", "--jobs", "1")
STATUS = re.compile(r"\[(\d+)/(\d+)\] pass \d+ fail \d+( [a-z_]+ \d+)* crash \d+ timeout (\d+)"
                    r"( [a-z_]+ \d+)* · \d+:\d\d elapsed")


def test_status_lines_come_while_every_case_hangs(tmp_path):
    result = run_package("consume", "consumers.hangs", *CELLS, "--max-failures", "2",
                         env={"DLPACK_USM_STATUS_INTERVAL_S": "0.25"})
    assert result.returncode == 1, result.stdout + result.stderr
    found = [STATUS.fullmatch(line) for line in result.stderr.splitlines()]
    found = [match for match in found if match]
    # Two hangs of 2 s at a line every 0.25 s: about 16; a loaded machine
    # may turn late.
    assert len(found) >= 5, result.stderr
    assert found[0].group(1) == "0", "the first line waited for a result: " + result.stderr
    assert found[0].group(2) == "3"
    assert int(found[-1].group(4)) >= 1, result.stderr


def test_max_failures_ends_the_run_with_the_rest_not_run(tmp_path):
    report = tmp_path / "r.json"
    result = run_package("consume", "consumers.hangs", *CELLS, "--max-failures", "2",
                         "--report", str(report), env={"DLPACK_USM_STATUS_INTERVAL_S": "0"})
    assert result.returncode == 1, result.stdout + result.stderr
    reason = "the run stopped after 2 failures (--max-failures 2)"
    assert f"1 case not run: {reason}" in result.stdout, result.stdout
    assert "gate: FAILED" in result.stdout
    assert " elapsed" not in result.stderr, "an interval of 0 prints no status line"
    document = json.loads(report.read_text())
    outcomes = sorted(entry["outcome"] for entry in document["results"]
                      if entry["outcome"] != "skipped")
    assert outcomes == ["not_run", "timeout", "timeout"], outcomes
    (not_run,) = [entry for entry in document["results"] if entry["outcome"] == "not_run"]
    assert reason in not_run["message"]
    assert document["summary"]["stop_reasons"] == [reason]


def test_bad_limits_and_intervals_are_usage_errors():
    for arguments, env in ((("--max-failures", "-1"), {}), (("--max-failures", "many"), {}),
                           ((), {"DLPACK_USM_STATUS_INTERVAL_S": "soon"}),
                           ((), {"DLPACK_USM_STATUS_INTERVAL_S": "-2"})):
        result = run_package("consume", "consumers.hangs", *CELLS, *arguments, env=env)
        assert result.returncode == 2, (arguments, env, result.stderr)
        assert "dlpack-usm: error:" in result.stderr, result.stderr
