"""Producers that would end the interpreter of a careless checker, checked
by the one engine (`dlpack-usm check --python-producer`, what `python3 -m
dlpack_usm check` runs): wild pointers (the tensor, its shape, the
exchange-API table) are read page-guarded by the library and reported as
findings; whatever __dlpack__ raises, SystemExit and KeyboardInterrupt
included, is a finding naming it, or a decline where nothing shows what the
object holds; a DLPACK_USM_LIBRARY that is another library is an
environment error (exit 3). The run always ends with its report: exit 4
stays the tool's own bugs."""

import _ctypes

import pytest

from conftest import require
from test_command_line import run

np = require("numpy")

import engine_runs  # noqa: E402

WILD = ["producers.WildCapsule()", "producers.WildShape()", "producers.WildExchangeApi()"]
REFUSING = [f"producers.RaisingArray({exception})"
            for exception in ("BufferError", "RuntimeError", "SystemExit", "KeyboardInterrupt")]
DECLINING = [f"producers.Raising({exception})"
             for exception in ("BufferError", "RuntimeError", "SystemExit")]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One run of every producer of this file, the consumer probe off (the
    consumer is not under test here)."""
    arguments = [word for expression in WILD + REFUSING + DECLINING
                 for word in ("--python-producer", expression)]
    found = engine_runs.check(*arguments, "--no-consumer-probe",
                              tmp_path=tmp_path_factory.mktemp("hostile"))
    assert found.result.returncode == 1, found.result.stdout + found.result.stderr
    assert "Traceback" not in found.result.stderr, found.result.stderr
    assert "internal error" not in found.result.stdout + found.result.stderr
    return found


def test_every_step_of_every_producer_has_its_record(hostile):
    # 14 steps each, none the tool's own error.
    for expression in WILD + REFUSING + DECLINING:
        cases = hostile.of(expression).results
        assert len(cases) == 14, expression
        assert not [case["id"] for case in cases if case["status"] == "error"], expression


@pytest.mark.parametrize("expression,field", [
    ("producers.WildCapsule()", "tensor"),
    ("producers.WildShape()", "dl_tensor.shape"),
])
def test_a_wild_tensor_pointer_is_a_finding_not_a_crash(hostile, expression, field):
    found = hostile.of(expression)
    assert found.step("capsule")["status"] == "fail"
    messages = found.messages("DLP-PY-MEMORY-UNREADABLE")
    assert any(message.startswith(f"{field}: ") for message in messages), messages
    assert any("not readable memory" in message for message in messages), messages
    assert not [case["id"] for case in found.results if case["status"] == "crash"]


def test_a_wild_exchange_api_pointer_is_a_finding_not_a_crash(hostile):
    found = hostile.of("producers.WildExchangeApi()")
    (message,) = found.messages("DLP-PY-EXCHANGE-API-READABLE")
    assert message.startswith("type(obj).__dlpack_c_exchange_api__: "), message
    assert found.step("exchange-api")["status"] == "fail"


@pytest.mark.parametrize("exception", ["BufferError", "RuntimeError", "SystemExit",
                                       "KeyboardInterrupt"])
def test_refusing_an_exportable_array_is_a_warning_naming_what_it_raised(hostile, exception):
    # The array's own __array_interface__ shows float32 elements DLPack can
    # describe: whatever __dlpack__ raises (SystemExit too) is a refusal.
    found = hostile.of(f"producers.RaisingArray({exception})")
    findings = [item for item in found.findings if item["rule_id"] == "DLP-PY-EXPORT-RAISED"]
    assert findings, found.findings
    assert findings[0]["severity"] == "warning"
    assert f"raised {exception} (no tensor today)" in findings[0]["message"]
    assert "__array_interface__ shows elements of type <f4" in findings[0]["message"]
    # A warning: the gate passes the producer.
    assert {case["status"] for case in found.results} <= {"warn", "not_supported"}
    assert found.step("capsule")["status"] == "warn"


@pytest.mark.parametrize("exception", ["BufferError", "RuntimeError", "SystemExit"])
def test_a_producer_may_decline_what_it_cannot_describe(hostile, exception):
    # No interface says what the object holds: any refusal is a decline,
    # every step not supported, with what it raised.
    found = hostile.of(f"producers.Raising({exception})")
    assert {case["status"] for case in found.results} == {"not_supported"}
    assert all(f"raised {exception} (no tensor today)" in case["message"]
               for case in found.results), found.results
    assert found.findings == []


def test_a_producer_that_declines_everything_does_not_pass_unless_allowed():
    # Nothing was exchanged (issue 36): the gate's own verdict is green, the
    # run is not, unless --allow-empty says such a run is expected.
    result = run("check", "producers.Raising(BufferError)")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "gate: PASSED (14 cases run in " in result.stdout
    assert "nothing was exchanged with producers.Raising(BufferError)" in result.stderr
    allowed = run("check", "producers.Raising(BufferError)", "--allow-empty")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr


def test_a_library_that_is_not_the_bridge_is_an_environment_error():
    # A shared library that loads and is surely no bridge: ctypes' own.
    other = _ctypes.__file__
    result = run("check", "numpy.arange(3)", env={"DLPACK_USM_LIBRARY": other})
    assert result.returncode == 3, (result.returncode, result.stderr)
    assert "is not libdlpack_usm" in result.stderr
    assert "DLPACK_USM_LIBRARY" in result.stderr
