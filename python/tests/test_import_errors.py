"""A module EXPR names that this interpreter cannot import is a usage error
(exit 2) of check, capture and consume alike, and says which interpreter
could not import it and what to do: a module of this interpreter whose name
is close (a typo), the venv's interpreter that scripts/setup.sh installs the
peers into, or installing what provides the module; never a pip install of
the name as typed, which may be another project's on PyPI."""

import os
import sys

import pytest

from conftest import run_package
from dlpack_usm import _expression
from dlpack_usm._bridge.errors import BridgeError

TOOLS_PYTHON = "/opt/dlpack-usm/venv/bin/python"
MISSING = "nosuchmodule_xyz"


def in_tools_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(_expression.TOOLS_PREFIX)


@pytest.mark.parametrize("arguments", [
    ("check", f"{MISSING}.zeros(3)"),
    ("capture", f"{MISSING}.zeros(3)", "-o", "{tmp}/t.json"),
    ("consume", f"{MISSING}.from_dlpack"),
], ids=lambda arguments: arguments[0])
def test_a_missing_module_names_the_interpreter_and_the_way_out(arguments, tmp_path):
    result = run_package(*[argument.format(tmp=tmp_path) for argument in arguments])
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert lines[0] == (f"dlpack-usm: error: EXPR names '{MISSING}', which is no builtin and no "
                        f"importable module: no module named '{MISSING}' for this interpreter "
                        f"({sys.executable})"), result.stderr
    assert lines[1].startswith("dlpack-usm: hint: "), result.stderr
    assert f"install the package that provides the module '{MISSING}' into {sys.executable}" \
        in lines[1]
    assert "pip install" not in lines[1]
    # The venv's interpreter is offered unless it is the one that ran.
    assert (f"run {TOOLS_PYTHON} -m dlpack_usm" in lines[1]) != in_tools_venv(), lines[1]
    assert not (tmp_path / "t.json").exists()


def failure(expression):
    with pytest.raises(BridgeError) as raised:
        _expression.evaluate(expression)
    return raised.value


def outside_a_venv(monkeypatch, executable="/usr/bin/python3"):
    monkeypatch.setattr(sys, "executable", executable)
    monkeypatch.setattr(sys, "prefix", "/usr")
    monkeypatch.setattr(sys, "base_prefix", "/usr")


def test_outside_a_venv_the_hint_is_the_venv_interpreter_or_pip(monkeypatch):
    outside_a_venv(monkeypatch)
    error = failure(f"{MISSING}.ones(4)")
    assert error.exit_code == 2
    assert error.message.endswith(
        f"no module named '{MISSING}' for this interpreter (/usr/bin/python3)")
    assert error.hint.startswith(f"run {TOOLS_PYTHON} -m dlpack_usm ... (scripts/setup.sh ")
    assert error.hint.endswith(f", or install the package that provides the module '{MISSING}' "
                               "into /usr/bin/python3 (its name on PyPI may differ)")


def test_in_the_tools_venv_the_hint_is_pip_alone(monkeypatch, tmp_path):
    monkeypatch.setattr(_expression, "TOOLS_PREFIX", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    error = failure(f"{MISSING}.ones(4)")
    assert f"for this interpreter ({tmp_path}/bin/python)" in error.message
    assert error.hint == (f"install the package that provides the module '{MISSING}' into "
                          f"{tmp_path}/bin/python (its name on PyPI may differ)")


def test_without_the_venv_the_hint_says_to_run_setup_first(monkeypatch, tmp_path):
    outside_a_venv(monkeypatch)
    monkeypatch.setattr(_expression, "TOOLS_PREFIX", str(tmp_path / "none"))
    error = failure(f"{MISSING}.ones(4)")
    assert f"run {tmp_path}/none/bin/python -m dlpack_usm" in error.hint
    assert "scripts/setup.sh makes it and installs the peers there: run it first" in error.hint


def test_a_module_whose_dependency_is_missing_names_the_dependency(monkeypatch, tmp_path):
    outside_a_venv(monkeypatch)
    (tmp_path / "needs_a_dependency_xyz.py").write_text(f"import {MISSING}_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    error = failure("needs_a_dependency_xyz.run()")
    assert error.message == (
        "EXPR names 'needs_a_dependency_xyz', which is no builtin and no importable module: "
        f"no module named '{MISSING}_dependency' for this interpreter (/usr/bin/python3)")
    assert error.hint.endswith(f"the module '{MISSING}_dependency' into /usr/bin/python3 "
                               "(its name on PyPI may differ)")


def test_a_module_that_fails_to_import_says_how_in_a_venv(monkeypatch, tmp_path):
    # Found, but its import fails (a shared library it needs is missing):
    # inside another venv the module is installed, so pip alone is offered.
    outside_a_venv(monkeypatch, "/opt/other-venv/bin/python")
    monkeypatch.setattr(sys, "prefix", "/opt/other-venv")
    (tmp_path / "broken_peer_xyz.py").write_text(
        "raise ImportError('libbroken.so: cannot open shared object file')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    error = failure("broken_peer_xyz.ones(3)")
    assert error.exit_code == 2
    assert error.message == (
        "EXPR names 'broken_peer_xyz', which is no builtin and no importable module: "
        "ImportError (libbroken.so: cannot open shared object file) in this interpreter "
        "(/opt/other-venv/bin/python)")
    assert error.hint == ("install the package that provides the module 'broken_peer_xyz' into "
                          "/opt/other-venv/bin/python (its name on PyPI may differ)")


def test_an_import_inside_the_code_expr_runs_names_the_interpreter(monkeypatch):
    outside_a_venv(monkeypatch)
    error = failure(f"__import__('{MISSING}')")
    assert error.message == ("evaluating EXPR failed: no module named "
                             f"'{MISSING}' for this interpreter (/usr/bin/python3)")
    assert f"provides the module '{MISSING}' into /usr/bin/python3" in error.hint


def test_a_typo_of_an_installed_module_is_offered_it_and_no_install(monkeypatch):
    require_numpy = pytest.importorskip("numpy")  # noqa: F841 - an installed module to mistype
    error = failure("nunpy.ones(3)")
    assert error.exit_code == 2
    assert error.hint.startswith("did you mean ") and "'numpy'" in error.hint
    assert "install" not in error.hint


def test_a_profile_of_a_mistyped_module_offers_the_installed_one():
    result = run_package("profile", "nunpy")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "did you mean " in result.stderr and "'numpy'" in result.stderr, result.stderr
    assert "pip install" not in result.stderr and "install nunpy" not in result.stderr


def test_a_name_that_is_a_builtin_is_not_imported():
    assert _expression.evaluate("len([1, 2])") == 2


def test_a_submodule_the_expression_reads_is_imported(monkeypatch, tmp_path):
    # mlx.core.arange(...): `import mlx` leaves mlx.core out, the expression
    # reads through it, so it is imported too; an attribute that is no
    # submodule (a function) is read as it is.
    package = tmp_path / "outer_pkg_xyz"
    package.mkdir()
    (package / "__init__.py").write_text("def double(x):\n    return 2 * x\n")
    (package / "inner.py").write_text("def answer():\n    return 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _expression.evaluate("outer_pkg_xyz.inner.answer() + outer_pkg_xyz.double(1)") == 44
    with pytest.raises(BridgeError, match="AttributeError"):
        _expression.evaluate("outer_pkg_xyz.missing_xyz.answer()")


def test_a_version_is_the_packages_else_its_distributions(monkeypatch, tmp_path):
    from dlpack_usm._package_version import package_version
    (tmp_path / "versioned_xyz.py").write_text("__version__ = '1.2.3'\n")
    (tmp_path / "unversioned_xyz.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("versioned_xyz")
    __import__("unversioned_xyz")
    assert package_version("versioned_xyz") == "1.2.3"
    # No __version__ and no distribution of that name.
    assert package_version("unversioned_xyz") == "unknown"
    # pytest has both; its distribution's version is its own.
    from importlib import metadata
    assert package_version("pytest") == metadata.version("pytest")


def test_of_several_failing_probes_the_first_on_the_command_line_is_reported():
    # The probes run --jobs at once; which one ends first must not decide
    # which error the user reads.
    import subprocess
    from conftest import package_environment
    from dlpack_usm import _frontend
    result = subprocess.run(
        [_frontend.binary(), "check", "--python", sys.executable, "--jobs", "2",
         "--python-consumer", f"{MISSING}_first.f", "--python-consumer", f"{MISSING}_second.f"],
        capture_output=True, text=True, env=package_environment(), timeout=300)
    assert result.returncode == 2, result.stderr
    assert f"'{MISSING}_first'" in result.stderr and f"{MISSING}_second" not in result.stderr, \
        result.stderr
