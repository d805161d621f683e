"""dlpack-usm handoff PRODUCER CONSUMER, as `python -m dlpack_usm handoff`
runs it: real libraries on both sides, the story in text, the JSON document
(dlpack-usm.handoff/1) with the producer's step, the consumer's, the
verdict, whose fault it is and each remedy tried, and check's exit codes.
A consumer that crashes is charged with it and leaves no process behind."""

import json
import os
import uuid

from conftest import gone_within, require, run_package

np = require("numpy")

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                      "conformance", "schema", "handoff.schema.json")
STRIDED = "numpy.arange(6).reshape(2,3)[:, ::2]"


def handoff(*arguments, env=None):
    return run_package("handoff", *arguments, env=env, timeout=300)


def document_of(result):
    document = json.loads(result.stdout)
    try:
        import jsonschema
    except ImportError:  # the GPU machine has none; CI's venv has it
        jsonschema = None
    if jsonschema is not None:
        with open(SCHEMA, encoding="utf-8") as schema:
            jsonschema.validate(document, json.load(schema))
    return document


def remedies_of(entry):
    return {remedy["name"]: remedy["result"] for remedy in entry["remedies"]}


def test_a_strided_view_reaches_array_api_strict_whole():
    require("array_api_strict")
    result = handoff(STRIDED, "array_api_strict.from_dlpack", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    (entry,) = document_of(result)["handoffs"]
    assert (entry["producer_library"], entry["consumer_library"]) == (
        STRIDED, "array_api_strict.from_dlpack")
    assert entry["emitted"]["strides"] == [3, 2] and entry["emitted"]["shape"] == [2, 2]
    assert entry["consumer"]["action"] == "accepted"
    assert entry["consumer"]["result"]["equal"] is True
    assert (entry["outcome"], entry["fault"]) == ("pass", "none")
    # Each remedy was tried for real: a host copy means nothing for host
    # memory, and the bare capsule is no array for array_api_strict.
    assert remedies_of(entry) == {"host-copy": "not tried", "legacy-capsule": "declined"}
    # The story went to stderr, the document alone to stdout.
    assert "verdict   works: no one's fault" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("gate: PASSED (4 cases run")


def test_a_handoff_into_dpnp_and_out_of_it(dpnp):
    into = handoff("numpy.ones((2, 3), dtype='float32')", "dpnp.from_dlpack", "--json")
    assert into.returncode == 0, into.stdout + into.stderr
    (entry,) = document_of(into)["handoffs"]
    assert entry["consumer"]["result"]["equal"] is True and entry["fault"] == "none"
    # dpnp's array handed to numpy: device USM numpy declines, and the host
    # copy the story suggests works, in the same run.
    out = handoff("dpnp", "numpy", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    (entry, *_) = document_of(out)["handoffs"]
    assert entry["tensor"] == "c-order"
    assert entry["emitted"]["pointer"]["usm_kind"] in ("device", "shared", "host")
    assert entry["consumer"]["action"] == "declined" and entry["fault"] == "none"
    assert entry["outcome"] == "not_supported"
    assert remedies_of(entry)["host-copy"] == "worked"
    host_copy = next(item for item in entry["remedies"] if item["name"] == "host-copy")
    assert host_copy["code"] == 'numpy.from_dlpack(numpy.from_dlpack(x, device="cpu", copy=True))'


def test_a_consumer_that_changes_the_data_is_at_fault():
    result = handoff("numpy.arange(4.0)", "lambda x, np=numpy: np.from_dlpack(x) + 1", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    (entry,) = document_of(result)["handoffs"]
    assert (entry["outcome"], entry["fault"]) == ("fail", "consumer")
    assert entry["rules"] == []
    assert "DLP-CONSUMER-CHECKSUM" in entry["verdict"]


def test_a_producer_that_emits_a_broken_tensor_is_at_fault():
    broken = "__import__('dlpack_usm.repro').repro.offered('shape-negative')"
    result = handoff(broken, "numpy.from_dlpack", "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    (entry,) = document_of(result)["handoffs"]
    assert entry["fault"] == "producer", entry
    assert any(item["severity"] == "error" for item in entry["rules"])
    assert "the producer's fault" in entry["verdict"]


def test_a_crashing_consumer_is_charged_and_leaves_nothing_behind():
    token = f"handoff-crash-{uuid.uuid4()}"
    result = handoff("numpy.ones(4)", "lambda x: __import__('ctypes').string_at(0)", "--json",
                     env={"DLPACK_USM_TEST_TOKEN": token})
    assert result.returncode == 1, result.stdout + result.stderr
    (entry,) = document_of(result)["handoffs"]
    assert (entry["outcome"], entry["fault"]) == ("crash", "consumer")
    assert "DLP-PLUGIN-CRASH" in entry["verdict"]
    # The producer's step is its own case: what it emitted survives the crash.
    assert entry["emitted"]["shape"] == [4] and entry["rules"] == []
    assert remedies_of(entry)["legacy-capsule"] == "crash"
    # The story gives the program that crashes alone.
    assert "from dlpack_usm.repro import handoff" in result.stderr
    assert gone_within(token, 5) == []


def test_a_handoff_needs_both_sides():
    result = handoff("numpy.ones(4)")
    assert result.returncode == 2
    assert "consumer is required" in result.stderr.lower() or "CONSUMER" in result.stderr
    both = handoff("numpy.ones(4)", "numpy.from_dlpack", "--json", "--report", "-")
    assert both.returncode == 2 and "--json and --report - both want stdout" in both.stderr
    not_an_array = handoff("len", "numpy.from_dlpack")
    assert not_an_array.returncode == 2, not_an_array.stderr
    assert "neither an array with __dlpack__ nor a module" in not_an_array.stderr


def test_check_runs_a_handoff_without_remedies(tmp_path):
    import subprocess
    import sys

    from conftest import package_environment
    from dlpack_usm._frontend import binary
    report = tmp_path / "handoff.json"
    result = subprocess.run([binary(), "check", "--python-handoff", "numpy.ones(3)",
                             "numpy.from_dlpack", "--python", sys.executable, "--report",
                             str(report)], capture_output=True, text=True,
                            env=package_environment(), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("handoff: numpy ")
    cases = json.loads(report.read_text())["results"]
    assert sorted(case["id"].rsplit("/", 1)[1] for case in cases) == ["direct", "emitted"]
    assert {case["consumer_library"] for case in cases} == {"numpy.from_dlpack"}
    assert {case["library"] for case in cases} == {"numpy.ones(3)"}
