"""`python3 -m dlpack_usm consume` contains the consumer as the command
line contains a library under test: a result that cannot be read back
fails its case, whatever the result's code raises."""

import pytest

from conftest import require
from test_consume_command import run

np = require("numpy")


@pytest.mark.parametrize("consumer,words", [
    ("consumers.returns_none", "returned a builtins.NoneType"),
    ("consumers.returns_wrong_list", "returned a builtins.list"),
    ("consumers.returns_array_raising(RuntimeError('no'))", "RuntimeError (no)"),
    ("consumers.returns_array_raising(SystemExit(0))", "SystemExit (0)"),
    ("consumers.returns_dlpack_raising", "SystemExit (0)"),
    ("consumers.returns_attributes_raising", "SystemExit (0)"),
])
def test_a_result_that_cannot_be_read_back_fails_with_its_reason(consumer, words):
    result = run(consumer, "--device", "cpu", "--cell", "c-order")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL consumer/cpu/cpu/c-order: wrong: rule DLP-CONSUMER-CHECKSUM" in result.stdout
    assert words in result.stdout, result.stdout
