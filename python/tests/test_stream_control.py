"""Controls before blame (issue 34): a stale read on the consumer's queue is
the producer's only where the tool's own producer, with the wait done by
hand on the same runtime and queue kind, read nothing stale. Where the
control is stale too, DLP-RUNTIME-QUEUE-ORDER names the runtime once and
the library's results on that kind are blocked, not failed; the kinds whose
control passed are still judged. The judgement is pure and runs over the
vectors of fixtures/runtime/queue_order_vectors.json; the live runs use
dpnp on this machine's SYCL device."""

import json
import pathlib
import re

import pytest

from conftest import require

import engine_runs
from dlpack_usm.producer import _stream_control, _stream_race

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "fixtures/runtime/queue_order_vectors.json").read_text())["vectors"]
QUEUE_ORDER = "DLP-RUNTIME-QUEUE-ORDER"
RACE = "DLP-PY-STREAM-RACE"
UNORDERED = "an out-of-order dpctl.SyclQueue of the tool"
ORDERED = "an in-order dpctl.SyclQueue of the tool"


def tallies_of(row):
    return [_stream_control.ControlTally(control["kind"], control.get("attempts", 0),
                                         control.get("stale", 0), control.get("why_not"))
            for control in row["controls"]]


@pytest.mark.parametrize("row", VECTORS, ids=[row["name"] for row in VECTORS])
def test_each_vector_names_the_runtime_once_and_blocks_its_kinds(row):
    verdict = _stream_control.judge_controls(row["runtime"], tallies_of(row))
    # A failing vector fires its rule once and no other; a passing one nothing.
    assert [item.rule_id for item in verdict.findings] == row.get("expect", [])
    assert sorted(verdict.blocked) == sorted(row["blocked"])
    for item in verdict.findings:
        assert item.severity == "warning" and row["runtime"] in item.message
        for control in row["controls"]:
            if control.get("stale"):
                assert f"stale data in {control['stale']} of {control['attempts']} attempts" \
                    in item.message
    for kind, why in verdict.blocked.items():
        assert why.startswith(f"blocked by {QUEUE_ORDER}: ") and kind in why
    # Every control is accounted for: blocked, or noted as clean or not run.
    assert len(verdict.blocked) + len(verdict.notes) == len(row["controls"])


def asked(label, rule=RACE):
    return _stream_race.Asked(label, {}, None, "that queue", rule, consumer=object())


def test_a_blocked_kind_is_not_judged_and_the_other_kinds_are():
    ways = [(asked(f"stream=<{UNORDERED}>"), _stream_race.Tally(16, 5, 100, 4096)),
            (asked(f"stream=<{ORDERED}>"), _stream_race.Tally(16, 3, 100, 4096))]
    verdict = _stream_control.judge_controls("a SYCL runtime", [
        _stream_control.ControlTally(UNORDERED, 32, 2),
        _stream_control.ControlTally(ORDERED, 32, 0)])
    found, notes, blocked = _stream_race.judge_ways(ways, verdict)
    # The in-order queue's control passed: the producer's stale reads there are its own.
    assert [item.rule_id for item in found] == [RACE]
    assert found[0].message.startswith(f"stream=<{ORDERED}>: stale data in 3 of 16 attempts")
    assert blocked is None
    assert any(note.startswith(f"stream=<{UNORDERED}>: not judged, stale data in 5 of 16 "
                               f"attempts, blocked by {QUEUE_ORDER}") for note in notes), notes


def test_a_step_whose_every_kind_is_blocked_is_blocked_not_failed():
    ways = [(asked(f"stream=<{UNORDERED}>"), _stream_race.Tally(16, 5, 100, 4096)),
            (asked("stream=None", rule=None), _stream_race.Tally(16, 9, 100, 4096))]
    verdict = _stream_control.judge_controls("a SYCL runtime", [
        _stream_control.ControlTally(UNORDERED, 32, 7)])
    found, notes, blocked = _stream_race.judge_ways(ways, verdict)
    assert found == []
    assert blocked.startswith(f"blocked by {QUEUE_ORDER}: ") and "7 of 32 attempts" in blocked


def test_without_a_control_the_producer_is_judged_as_before():
    ways = [(asked(f"stream=<{UNORDERED}>"), _stream_race.Tally(16, 5, 100, 4096))]
    verdict = _stream_control.judge_controls("a SYCL runtime", [
        _stream_control.ControlTally(UNORDERED, why_not="dpctl is not installed")])
    found, notes, blocked = _stream_race.judge_ways(ways, verdict)
    assert [item.rule_id for item in found] == [RACE] and blocked is None
    assert verdict.notes == [f"control on {UNORDERED}: not run, dpctl is not installed"]


# Live, on this machine's SYCL device (dpnp).

def check(expression, attempts, tmp_path):
    found = engine_runs.check("--python-producer", expression, "--no-consumer-probe",
                              "--stream-attempts", str(attempts), tmp_path=tmp_path)
    assert found.result.returncode in (0, 1), found.result.stdout + found.result.stderr
    return found.of(expression)


def test_dpnp_is_failed_only_where_the_tools_own_wait_read_nothing_stale(tmp_path):
    require("dpnp")
    found = check("dpnp.ones(4)", 8, tmp_path)
    control = found.step("stream-control")
    assert control["status"] in ("pass", "warn"), control
    named = found.messages(QUEUE_ORDER)
    assert len(named) <= 1, named  # the runtime is named once
    for message in found.messages(RACE):
        kind = re.search(r"stream=<([^>]*)>", message).group(1)
        # A race blamed on dpnp stands beside a control that read nothing stale.
        assert any(note.startswith(f"control on {kind}: no stale read in 16 attempts")
                   for note in found.notes), (message, found.notes)
    if named:
        assert "stale data in " in named[0] and " of 16 attempts" in named[0]
        assert found.step("stream-race")["status"] in ("pass", "warn", "not_supported")


def caught_beside_a_clean_control(expression, tmp_path):
    """(the run, its race messages, its clean control notes) of a producer
    that skips its wait: caught, and a control ran for the kinds it read
    stale on and passed at least once, so the producer is caught there."""
    found = check(expression, 8, tmp_path)
    races = found.messages(RACE)
    assert races, found.notes
    clean = [note for note in found.notes
             if note.startswith("control on ") and ": no stale read in 16 attempts" in note]
    assert clean, found.notes
    return found, races, clean


def test_a_producer_that_skips_its_wait_is_caught_where_the_control_passed(tmp_path):
    require("dpnp")
    _, races, clean = caught_beside_a_clean_control("sycl_producers.LateSyclWrite(wait=False)",
                                                    tmp_path)
    assert any(f"stream=<{note[len('control on '):note.index(': no')]}>" in message
               for message in races for note in clean), (races, clean)


def test_the_control_reads_stale_data_when_nothing_orders_the_read():
    # The control is an experiment that can fail: the tool's own late work,
    # read at once on another queue without the barrier, is stale.
    require("dpctl")
    import dpctl
    from dlpack_usm._bridge import library
    from dlpack_usm.producer import _control_producers
    producer = _control_producers.SyclControl(dpctl.SyclQueue())
    producer.hand_over = lambda consumer: None
    queue = producer.queue
    consumer = dpctl.SyclQueue(queue.sycl_context, queue.sycl_device, property="in_order")
    tally = _stream_control.ControlTally(ORDERED)
    for _ in range(8):
        _stream_control.run_control(tally, producer, consumer, lambda address, size:
                                    library.sycl_queue_read(consumer.addressof_ref(), address,
                                                            size))
    assert tally.stale > 0, tally


# CUDA: the GPU machine (cupy for the tool's own late work).

def test_a_cuda_producer_that_skips_its_wait_is_caught_where_the_control_passed(tmp_path):
    from test_stream_race import cuda_devices
    cuda_devices()
    found, _, _ = caught_beside_a_clean_control("cuda_producers.LateWrite(wait=False)", tmp_path)
    assert found.messages(QUEUE_ORDER) == [], found.notes


def test_cuda_libraries_are_not_failed_for_what_the_control_reads_stale(tmp_path):
    from test_stream_race import cuda_devices
    cuda_devices()
    for expression in ("torch.arange(4096., device='cuda')", "cupy.arange(4096)"):
        module = expression.split(".")[0]
        try:
            __import__(module)
        except ImportError:
            continue
        found = check(expression, 8, tmp_path)
        for message in found.messages(RACE):
            # A race blamed on the library stands beside a clean control.
            assert any(note.startswith("control on ") and "no stale read" in note
                       for note in found.notes), (expression, message, found.notes)
