"""Each Python-level rule: a producer (or consumer) that breaks it is
reported under that rule and no other error or warning, and numpy, a real
producer that keeps it, is not."""

import ctypes

import pytest

from conftest import judged_ids, require

np = require("numpy")

import dlpack_usm  # noqa: E402
from dlpack_usm._bridge import capsules  # noqa: E402
from dlpack_usm.producer import _exchange_api  # noqa: E402
from dlpack_usm.rules import CATALOG  # noqa: E402
from producers import (KDL_CPU, DLManagedTensorVersioned, Delegate,  # noqa: E402
                       MaxVersionWrongWayRound, NoDestructor, OwnTensor, ReadOnlyLegacy,
                       VersionedForAnyMaxVersion, _api, mark_used)

IS_COPIED = 2  # DLPACK_FLAG_BITMASK_IS_COPIED


def python_findings(obj, consumer=None):
    """Findings of the Python rules alone (the tensor rules are the tool's)."""
    return [item for item in dlpack_usm.check(obj, consumer=consumer)
            if item.rule_id.startswith("DLP-PY-")]


class VersionedByDefault(Delegate):
    def __dlpack__(self, max_version=None, **kwargs):
        return self.array.__dlpack__(max_version=max_version or (1, 0), **kwargs)


class LegacyOnly(Delegate):
    def __dlpack__(self, max_version=None, **kwargs):
        return self.array.__dlpack__(**kwargs)


class KeywordRaisesWrongType(Delegate):
    def __dlpack__(self, max_version=None, **kwargs):
        if max_version is not None:
            raise NotImplementedError("max_version is not implemented")
        return self.array.__dlpack__(**kwargs)


class IgnoresDlDevice(Delegate):
    def __dlpack__(self, dl_device=None, **kwargs):
        return self.array.__dlpack__(**kwargs)


class RefusesOwnDevice(Delegate):
    def __dlpack__(self, dl_device=None, **kwargs):
        if dl_device is not None:
            raise BufferError("no dl_device accepted")
        return self.array.__dlpack__(**kwargs)


class IgnoresCopy(Delegate):
    def __dlpack__(self, copy=None, **kwargs):
        return self.array.__dlpack__(**kwargs)


class CopiesWhenAskedNotTo(Delegate):
    def __dlpack__(self, copy=None, **kwargs):
        return self.array.__dlpack__(copy=True if copy is False else copy, **kwargs)


class CopiesOnNone(Delegate):
    """copy=None with dl_device of the array's own device: a copy (flagged),
    where the array's memory could be reused."""

    def __dlpack__(self, dl_device=None, copy=None, **kwargs):
        if copy is None and dl_device is not None and \
                tuple(dl_device) == self.array.__dlpack_device__():
            copy = True
        return self.array.__dlpack__(dl_device=dl_device, copy=copy, **kwargs)


class FlagsItsOwnMemory(Delegate):
    """IS_COPIED set on the array's own memory when dl_device is given and
    copy is not."""

    def __dlpack__(self, dl_device=None, copy=None, **kwargs):
        capsule = self.array.__dlpack__(dl_device=dl_device, copy=copy, **kwargs)
        if dl_device is not None and copy is None and \
                capsules.capsule_name(capsule) == "dltensor_versioned":
            pointer = _api.PyCapsule_GetPointer(capsule, b"dltensor_versioned")
            DLManagedTensorVersioned.from_address(pointer).flags |= IS_COPIED
        return capsule


class DeclinesWithValueError(Delegate):
    """Another device declined with ValueError, not BufferError."""

    def __dlpack__(self, dl_device=None, **kwargs):
        if dl_device is not None and tuple(dl_device) != self.array.__dlpack_device__():
            raise ValueError("no copy to another device")
        return self.array.__dlpack__(dl_device=dl_device, **kwargs)


class AcceptsStream(Delegate):
    def __dlpack__(self, stream=None, **kwargs):
        return self.array.__dlpack__(**kwargs)


class WrongDevice(Delegate):
    def __dlpack_device__(self):
        return (KDL_CPU, 1)


class NoDevice(Delegate):
    __dlpack_device__ = None

    def __getattribute__(self, name):
        if name == "__dlpack_device__":
            raise AttributeError(name)
        return super().__getattribute__(name)


class AboveMaxMajor(OwnTensor):
    def __init__(self):
        super().__init__(b"dltensor_versioned", major=2)

    def __dlpack__(self, max_version=None, **kwargs):
        if max_version is None:
            return self.legacy_capsule()
        return super().__dlpack__()

    def legacy_capsule(self):
        return Delegate(np.arange(4, dtype=np.float32) + 1).__dlpack__()


def consumer_that_does_not_rename(obj):
    capsule = obj.__dlpack__(max_version=(1, 0))
    return capsules.capsule_pointer(capsule, capsules.capsule_name(capsule))


def consumer_that_reuses(obj):
    capsule = obj.__dlpack__(max_version=(1, 0))
    name = capsules.capsule_name(capsule)
    if name.startswith("used_"):
        return name  # takes it anyway
    mark_used(capsule, name)
    # This consumer takes the tensor and frees it as an owner must.
    pointer = ctypes.pythonapi.PyCapsule_GetPointer(ctypes.py_object(capsule),
                                                    capsules.USED_NAMES[name].encode())
    deleter = ctypes.c_void_p.from_address(pointer + 16).value
    if deleter:
        _exchange_api.DELETER(deleter)(pointer)
    return name


FAILING = [
    ("DLP-PY-CAPSULE-NAME", lambda: OwnTensor(b"dltensor_v2")),
    ("DLP-PY-LEGACY-DEFAULT", lambda: VersionedByDefault()),
    ("DLP-PY-VERSIONED-OFFERED", lambda: LegacyOnly()),
    ("DLP-PY-VERSION-ABOVE-MAX", lambda: AboveMaxMajor()),
    ("DLP-PY-VERSION-ABOVE-MAX", lambda: VersionedForAnyMaxVersion()),
    ("DLP-PY-CAPSULE-DESTRUCTOR", lambda: NoDestructor()),
    ("DLP-PY-READ-ONLY-LEGACY", lambda: ReadOnlyLegacy()),
    ("DLP-PY-KEYWORD-TYPEERROR", lambda: KeywordRaisesWrongType()),
    ("DLP-PY-DL-DEVICE-FOREIGN", lambda: IgnoresDlDevice()),
    ("DLP-PY-DL-DEVICE-OWN", lambda: RefusesOwnDevice()),
    ("DLP-PY-COPY-FLAG", lambda: IgnoresCopy()),
    ("DLP-PY-NO-COPY-COPIED", lambda: CopiesWhenAskedNotTo()),
    ("DLP-PY-COPY-NONE-COPIED", lambda: CopiesOnNone()),
    ("DLP-PY-COPIED-FLAG-SHARED", lambda: FlagsItsOwnMemory()),
    ("DLP-PY-DECLINE-CLASS", lambda: DeclinesWithValueError()),
    ("DLP-PY-STREAM-CPU", lambda: AcceptsStream()),
    ("DLP-PY-DEVICE-AGREES", lambda: WrongDevice()),
]


@pytest.mark.parametrize("rule_id,make", FAILING,
                         ids=[f"{rule}-{index}" for index, (rule, _) in enumerate(FAILING)])
def test_a_producer_that_breaks_one_rule_is_reported_for_it_alone(rule_id, make):
    assert judged_ids(python_findings(make())) == [rule_id]


def test_a_missing_dlpack_device_is_reported():
    assert judged_ids(python_findings(NoDevice())) == ["DLP-PY-DEVICE-AGREES"]


def test_numpy_keeps_every_producer_rule():
    assert judged_ids(python_findings(np.arange(6, dtype=np.float32).reshape(2, 3))) == []


def test_numpy_refuses_a_legacy_capsule_of_a_read_only_array():
    array = np.arange(6, dtype=np.float32)
    array.flags.writeable = False
    assert judged_ids(python_findings(array)) == []


def test_max_version_compared_the_wrong_way_round_breaks_both_directions():
    # Legacy for max_version=(1, 3), versioned for max_version=(0, 8).
    assert judged_ids(python_findings(MaxVersionWrongWayRound())) == \
        ["DLP-PY-VERSION-ABOVE-MAX", "DLP-PY-VERSIONED-OFFERED"]


def test_a_capsule_without_destructor_never_runs_the_deleter_when_dropped():
    # What the rule rests on, shown on a capsule of the fixture: dropped
    # unconsumed, it leaves numpy's tensor (and its reference) behind.
    import sys
    # Counted outside the assert: pytest's rewritten asserts hold references.
    for producer, kept in ((Delegate(), False), (NoDestructor(), True)):
        before = sys.getrefcount(producer.array)
        capsule = producer.__dlpack__(max_version=(1, 0))
        del capsule
        after = sys.getrefcount(producer.array)
        assert (after > before) == kept, (type(producer).__name__, before, after)


def test_a_consumer_that_does_not_rename_is_reported():
    found = python_findings(Delegate(), consumer=consumer_that_does_not_rename)
    assert judged_ids(found) == ["DLP-PY-CONSUMER-RENAME"]


def test_a_consumer_that_takes_a_used_capsule_is_reported():
    found = python_findings(Delegate(), consumer=consumer_that_reuses)
    assert judged_ids(found) == ["DLP-PY-CONSUMER-REUSE"]


def test_numpy_as_consumer_renames_and_refuses_a_used_capsule():
    found = python_findings(Delegate(), consumer=np.from_dlpack)
    assert judged_ids(found) == []


def test_every_rule_has_a_failing_vector_here_or_in_its_own_test_file():
    covered = {rule for rule, _ in FAILING} | {"DLP-PY-CONSUMER-RENAME", "DLP-PY-CONSUMER-REUSE"}
    # test_hostile_producers.py: producers that raise or point to wild memory.
    covered |= {"DLP-PY-EXPORT-RAISED", "DLP-PY-MEMORY-UNREADABLE"}
    covered |= {rule.id for rule in CATALOG
                if rule.id.startswith(("DLP-PY-SUAI-", "DLP-PY-EXCHANGE-API-",
                                                "DLP-PY-STREAM-CUDA-"))}
    # test_consumer_rules.py and the observation table of test_consumer_verdict.py:
    # consumers that decline with an exception the specification does not name.
    covered |= {"DLP-PY-DECLINE-DEVICE-EXCEPTION", "DLP-PY-DECLINE-EXCEPTION"}
    # test_stream_race.py: producers whose write is still in flight (SYCL here,
    # CUDA on the GPU machine); test_cuda_consumer_streams.py: CUDA consumers
    # that pass 0 or read on another stream than they pass (GPU machine).
    covered |= {"DLP-PY-STREAM-RACE", "DLP-PY-STREAM-CPU-SYNC", "DLP-PY-CONSUMER-STREAM-ZERO",
                "DLP-PY-CONSUMER-STREAM-READ", "DLP-PY-CONSUMER-STREAM-DEVICE"}
    # test_copy_oracle.py: consumers that ignore from_dlpack's copy keyword.
    covered |= {"DLP-PY-CONSUMER-COPY-SHARED", "DLP-PY-CONSUMER-NO-COPY-COPIED"}
    assert covered == {rule.id for rule in CATALOG}


def test_the_capsules_asked_for_are_released():
    # The producer's destructor runs when the bridge drops a capsule: the
    # array's exports do not pin it.
    import sys
    array = np.arange(6, dtype=np.float32)
    before = sys.getrefcount(array)
    dlpack_usm.check(array, consumer=None)
    assert sys.getrefcount(array) == before


GAPS = [("producers.NoDestructor()", "DLP-PY-CAPSULE-DESTRUCTOR", "fail"),
        ("producers.ReadOnlyLegacy()", "DLP-PY-READ-ONLY-LEGACY", "warn"),
        ("producers.VersionedForAnyMaxVersion()", "DLP-PY-VERSION-ABOVE-MAX", "warn")]


@pytest.fixture(scope="module")
def gaps(tmp_path_factory):
    """The producers of GAPS, checked by the command line's engine in one
    run (dlpack-usm check --python-producer, as python3 -m dlpack_usm check
    runs it)."""
    import engine_runs
    arguments = [word for expression, _, _ in GAPS for word in ("--python-producer", expression)]
    found = engine_runs.check(*arguments, "--no-consumer-probe",
                              tmp_path=tmp_path_factory.mktemp("gaps"))
    assert found.result.returncode == 1, found.result.stdout + found.result.stderr
    return found


@pytest.mark.parametrize("expression,rule_id,worst", GAPS)
def test_the_command_line_names_the_producer_gap(gaps, expression, rule_id, worst):
    # An error fails its step (and the gate); a warning is named and passes.
    found = gaps.of(expression)
    assert {item["rule_id"] for item in found.findings
            if item["rule_id"].startswith("DLP-PY-")} == {rule_id}
    statuses = {case["status"] for case in found.results}
    assert worst in statuses and not statuses & {"fail", "crash", "timeout", "error"} - {worst}
    assert {case["verdict"] for case in found.results} == \
        ({"ok", "regression"} if worst == "fail" else {"ok"})
