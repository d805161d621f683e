"""Producers that would end the interpreter of a careless checker, through
`python3 -m dlpack_usm check` as a user runs it: wild pointers (the tensor,
its shape, the exchange-API table) are read page-guarded by the library and
reported as findings; whatever __dlpack__ raises, SystemExit and
KeyboardInterrupt included, is a finding naming it; a DLPACK_USM_LIBRARY
that is another library is an environment error (exit 3). Exit 4 stays the
tool's own bugs."""

import _ctypes
import json

import pytest

from conftest import require
from test_command_line import run

np = require("numpy")


def check_json(expression, *options, consumer=False):
    """The command's result and its JSON document, which must be there, with
    neither a traceback nor an internal error."""
    result = run("check", "--json", *([] if consumer else ["--no-consumer"]), *options,
                 expression)
    assert result.returncode in (0, 1), (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, \
        result.stderr
    return result, json.loads(result.stdout)


def rule_fields(document, rule_id):
    return [item["field"] for item in document["findings"] if item["rule_id"] == rule_id]


@pytest.mark.parametrize("expression,field", [
    ("producers.WildCapsule()", "tensor"),
    ("producers.WildShape()", "dl_tensor.shape"),
])
def test_a_wild_tensor_pointer_is_a_finding_not_a_crash(expression, field):
    result, document = check_json(expression)
    assert result.returncode == 1
    assert field in rule_fields(document, "DLP-PY-MEMORY-UNREADABLE")
    assert "not readable memory" in json.dumps(document["findings"])


def test_a_wild_exchange_api_pointer_is_a_finding_not_a_crash():
    result, document = check_json("producers.WildExchangeApi()")
    assert result.returncode == 1
    assert rule_fields(document, "DLP-PY-EXCHANGE-API-READABLE") == \
        ["type(obj).__dlpack_c_exchange_api__"]


@pytest.mark.parametrize("exception", ["BufferError", "RuntimeError", "SystemExit",
                                       "KeyboardInterrupt"])
def test_refusing_an_exportable_array_is_a_warning_naming_what_it_raised(exception):
    # The array's own __array_interface__ shows float32 elements DLPack can
    # describe: whatever __dlpack__ raises (SystemExit too) is a refusal.
    result, document = check_json(f"producers.RaisingArray({exception})")
    findings = [item for item in document["findings"] if item["rule_id"] == "DLP-PY-EXPORT-RAISED"]
    assert findings, document
    assert findings[0]["severity"] == "warning"
    assert f"raised {exception} (no tensor today)" in findings[0]["message"]
    assert "__array_interface__ shows elements of type <f4" in findings[0]["message"]
    assert result.returncode == 0 and "internal error" not in result.stderr


@pytest.mark.parametrize("exception", ["BufferError", "RuntimeError", "SystemExit"])
def test_a_producer_may_decline_what_it_cannot_describe(exception):
    # No interface says what the object holds: any refusal is a decline.
    result = run("check", f"producers.Raising({exception})")
    assert result.returncode == 0, result.stderr
    assert "not applicable" in result.stdout and exception in result.stdout


def test_a_library_that_is_not_the_bridge_is_an_environment_error():
    # A shared library that loads and is surely no bridge: ctypes' own.
    other = _ctypes.__file__
    result = run("check", "numpy.arange(3)", env={"DLPACK_USM_LIBRARY": other})
    assert result.returncode == 3, (result.returncode, result.stderr)
    assert "is not libdlpack_usm" in result.stderr
    assert "DLPACK_USM_LIBRARY" in result.stderr
