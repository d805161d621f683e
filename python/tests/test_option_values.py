"""Option values as a user types them: --timeout of check, consume and
profile is a number of seconds from 0.01 to 86400, anything else a usage
error (exit 2) that says so in words; a mistyped device, cell or feature of
consume is offered the closest names. All before any module EXPR names is
imported: the options are `dlpack-usm check`'s, read by it."""

import pytest

from conftest import run_package


@pytest.mark.parametrize("command", [("check", "nosuchmodule_xyz.zeros(3)"),
                                     ("consume", "nosuchmodule_xyz.from_dlpack"),
                                     ("profile", "nosuchmodule_xyz")],
                         ids=lambda command: command[0])
@pytest.mark.parametrize("typed, words", [
    ("-1", "-1 is not between 0.01 and 86400 seconds"),
    ("0", "0 is not between 0.01 and 86400 seconds"),
    ("nan", "nan is not between 0.01 and 86400 seconds"),
    ("inf", "inf is not between 0.01 and 86400 seconds"),
    ("x", "'x' is not a number of seconds"),
])
def test_a_timeout_out_of_range_is_a_usage_error_in_words(command, typed, words):
    result = run_package(*command, "--timeout", typed)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert words in result.stderr, result.stderr
    assert "nosuchmodule_xyz" not in result.stderr, "the option is refused before EXPR is read"


@pytest.mark.parametrize("option, typed, offered", [
    ("--cell", "c-ordr", "c-ordr\": no cell of this name in this run (did you mean 'c-order'"),
    ("--require", "bol", "bol: no consumer case needs this feature (did you mean 'bool'"),
])
def test_a_mistyped_name_of_the_matrix_is_offered_the_closest(option, typed, offered):
    result = run_package("consume", "numpy.from_dlpack", option, typed)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert offered in result.stderr, result.stderr


def test_a_name_close_to_nothing_is_offered_nothing():
    result = run_package("consume", "numpy.from_dlpack", "--device", "xyzzy")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "--device \"xyzzy\": no device of this name in this run\n" in result.stderr, \
        result.stderr
