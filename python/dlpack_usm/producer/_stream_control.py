"""Controls before blame (issue 34; DLP-RUNTIME-QUEUE-ORDER). A stale read
on the consumer's queue blames the producer only if the runtime orders
that read after a wait done right. So where a way of asking read stale
data, the tool repeats the experiment on the same consumer queue or
stream with late work of its own (_control_producers: same runtime,
device and queue kind) and the producer's part of the protocol done by
hand, correctly: a barrier (SYCL: `B.submit_barrier([A.submit_barrier()])`)
or an event (CUDA: recorded on the producer's stream, waited for on the
consumer's). If that read is stale too, the runtime does not order it:
the runtime is named once, with its queue kinds and attempt counts, and
the producer's results on those kinds are blocked, not failed. Kinds
whose control read nothing stale are judged as before."""

from dataclasses import dataclass, field

from ..rules import finding

QUEUE_ORDER = "DLP-RUNTIME-QUEUE-ORDER"
# A control runs more attempts than the way of asking it stands beside: a
# runtime that misorders now and then must show it before a library is
# blamed for what it did in as few attempts.
CONTROL_FACTOR = 2


@dataclass
class ControlTally:
    """What the control of one consumer queue or stream kind saw."""
    kind: str  # "an out-of-order dpctl.SyclQueue of the tool", "the legacy default stream"
    attempts: int = 0
    stale: int = 0
    why_not: str = None  # no control could be run: why


@dataclass
class ControlVerdict:
    """The runtime's finding (one for all kinds, or none), the kinds whose
    results are blocked (kind -> why) and what every control saw."""
    findings: list = field(default_factory=list)
    blocked: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


def judge_controls(runtime, tallies):
    """ControlVerdict of the controls `tallies` run on `runtime` (its name
    and version, as messages show it). Pure: the vectors of
    fixtures/runtime/queue_order_vectors.json run through it."""
    verdict = ControlVerdict()
    stale = [tally for tally in tallies if tally.why_not is None and tally.stale > 0]
    for tally in tallies:
        if tally.why_not is not None:
            verdict.notes.append(f"control on {tally.kind}: not run, {tally.why_not}")
        elif tally.stale == 0:
            verdict.notes.append(f"control on {tally.kind}: no stale read in {tally.attempts} "
                                 "attempts after the tool's own wait")
    for tally in stale:
        verdict.blocked[tally.kind] = (
            f"blocked by {QUEUE_ORDER}: the tool's own wait, done by hand on the same work and "
            f"{tally.kind}, read stale data in {tally.stale} of {tally.attempts} attempts")
    if stale:
        shown = "; ".join(f"on {tally.kind}, stale data in {tally.stale} of {tally.attempts} "
                          "attempts" for tally in stale)
        verdict.findings.append(finding(
            QUEUE_ORDER, "runtime",
            f"{runtime} read data still being written by earlier work although the tool ordered "
            f"the read after that work itself: {shown}. The runtime, not the library under "
            "test, misorders the read: the library's results on these kinds are blocked"))
    return verdict


def run_control(tally, producer, consumer, read):
    """One control attempt into `tally`: the tool's own late work made
    (_control_producers), handed over to `consumer` by the tool's own wait,
    its elements read at once (read(address, size), on the consumer's
    queue or stream) and again once the device is idle."""
    address, size = producer.make()
    producer.hand_over(consumer)
    now = read(address, size)
    producer.settle()
    later = read(address, size)
    tally.attempts += 1
    if now != later:
        tally.stale += 1
