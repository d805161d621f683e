"""python3 -m dlpack_usm check|capture|rules as a user runs them: exit
codes of dlpack-usm (0 ok, 1 findings, 2 usage, 3 environment), errors on
stderr as `dlpack-usm: error: ...`, check's text and report (check runs
`dlpack-usm check --python-producer EXPR`), and a captured file that
`dlpack-usm capsule check` accepts."""

import json
import os
import subprocess
import sys

import pytest

from conftest import require

np = require("numpy")

import engine_runs  # noqa: E402

TESTS = os.path.dirname(os.path.abspath(__file__))


def run(*arguments, env=None):
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)), TESTS])
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "dlpack_usm", *arguments], capture_output=True,
                          text=True, env=environment, timeout=120)


def test_check_of_a_conformant_array_exits_0():
    # check's text: the producer, one case per step of the protocol, the gate.
    result = run("check", "numpy.arange(6).reshape(2, 3)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("producer: numpy ")
    assert result.stdout.rstrip().splitlines()[-1].startswith("gate: PASSED (14 cases run in ")


def report_of(result):
    """The check report `check --json` wrote on stdout, seen as engine_runs
    sees a report, through the cases of the one producer it checked."""
    document = json.loads(result.stdout)
    (producer,) = document["plugins"]
    return engine_runs.Run(result, document, engine_runs.label(producer["path"]))


def test_check_json_carries_the_facts_and_findings():
    result = run("check", "--json", "numpy.arange(6.0)[::-2]")
    assert result.returncode == 0, result.stderr
    found = report_of(result)
    assert found.capsule["dl_tensor"]["strides"] == [-2]
    assert found.fired("error") == []
    assert found.document["summary"]["outcomes"]["fail"] == 0
    # The summary is on stderr, so that stdout is the document alone.
    assert "gate: PASSED" in result.stderr


def validate(schema_name, text, tmp_path):
    """`text` validates against conformance/schema/SCHEMA_NAME.schema.json
    (skipped, naming jsonschema, where it is missing)."""
    require("jsonschema")
    sys.path.insert(0, os.path.join(TESTS, os.pardir, os.pardir, "tests", "tools"))
    import validate_outputs
    document = tmp_path / f"{schema_name}.json"
    document.write_text(text)
    schema = os.path.join(TESTS, os.pardir, os.pardir, "conformance", "schema",
                          f"{schema_name}.schema.json")
    assert validate_outputs.validate_schema(schema, [str(document)])


@pytest.mark.parametrize("expression,exit_code", [
    ("numpy.arange(6.0)[::-2]", 0),
    ("producers.OwnTensor(b'dltensor_v2')", 1),
    # Not supported: nothing was exchanged, and such a run does not pass.
    ("producers.Raising(BufferError)", 3),
])
def test_check_json_is_a_check_report_and_follows_its_schema(expression, exit_code, tmp_path):
    result = run("check", "--json", expression)
    assert result.returncode == exit_code, result.stderr
    document = json.loads(result.stdout)
    assert list(document)[:3] == ["schema", "tool", "version"]
    assert document["schema"] == "dlpack-usm.report/3"
    assert document["tool"] == "dlpack-usm"
    assert document["version"] == __import__("dlpack_usm").tool_version()
    (producer,) = document["plugins"]
    assert (producer["role"], producer["interface"], producer["path"]) == \
        ("producer", "python", expression)


@pytest.mark.parametrize("command,target,extra", [
    ("check", "numpy.arange(6.0)[::-2]", ()),
    ("consume", "numpy.from_dlpack", ("--device", "cpu", "--cell", "c-order")),
    ("profile", "numpy", ("--device", "cpu", "--cell", "c-order")),
])
def test_the_front_ends_reports_follow_the_report_schema(command, target, extra, tmp_path):
    report = tmp_path / "written.json"
    result = run(command, target, *extra, "--report", str(report))
    assert result.returncode == 0, result.stdout + result.stderr
    validate("report", report.read_text(), tmp_path)


def test_check_json_carries_the_read_only_flag():
    # READ_ONLY (bit 0) on a numpy view that cannot be written: the capsule
    # read says so, and the rule that notes it fires (an info).
    expression = "(lambda a: (a.setflags(write=False), a)[1])(numpy.arange(3.0))"
    found = report_of(run("check", "--json", expression))
    assert found.capsule["flags"] == "READ_ONLY"
    assert "DLP-FLAGS-READ-ONLY" in found.fired("info")


def test_check_of_a_broken_producer_exits_1_naming_the_rule():
    result = run("check", "producers.OwnTensor(b'dltensor_v2')")
    assert result.returncode == 1
    assert "rule DLP-PY-CAPSULE-NAME: " in result.stdout
    # Each rule of the failure group once, where to read it, and how to run
    # the failing case again.
    assert result.stdout.count("see: dlpack-usm rules DLP-PY-CAPSULE-NAME") == 1, result.stdout
    assert "regression: 1 case, fail" in result.stdout
    assert "  repro: dlpack-usm check --python-producer 'producers.OwnTensor(b" in result.stdout


def test_strict_fails_on_warnings():
    # A legacy-only producer: DLP-PY-VERSIONED-OFFERED is a warning. Its
    # class, made by type() in EXPR, has no __module__: the report names it
    # "unknown".
    expression = "type('Legacy', (), {'a': numpy.arange(3), " \
                 "'__dlpack__': lambda self: self.a.__dlpack__(), " \
                 "'__dlpack_device__': lambda self: self.a.__dlpack_device__()})()"
    relaxed = run("check", expression)
    assert relaxed.returncode == 0, relaxed.stdout + relaxed.stderr
    assert "warnings (1 in 1 group; the gate passes them, --strict fails them):" in \
        relaxed.stdout
    strict = run("check", "--strict", expression)
    assert strict.returncode == 1 and "DLP-PY-VERSIONED-OFFERED" in strict.stdout
    assert "gate: FAILED (strict)" in strict.stdout


@pytest.mark.parametrize("expression,words", [
    ("numpy.arange(", "not a Python expression"),
    ("no_such_module_here.x", "no importable module"),
    ("42", "has no __dlpack__"),
])
def test_bad_expressions_are_usage_errors(expression, words):
    result = run("check", expression)
    assert result.returncode == 2
    assert result.stderr.startswith("dlpack-usm: error: ") and words in result.stderr


def test_a_missing_library_is_an_environment_error(tmp_path):
    result = run("check", "numpy.arange(3)", env={"DLPACK_USM_LIBRARY": str(tmp_path / "none.so")})
    assert result.returncode == 3
    assert "libdlpack_usm was not found" in result.stderr


def test_capture_writes_a_file_capsule_check_accepts(tmp_path):
    target = tmp_path / "numpy.json"
    result = run("capture", "numpy.arange(12, dtype='float32').reshape(3, 4).T", "-o",
                 str(target))
    assert result.returncode == 0, result.stderr
    capsule = json.loads(target.read_text())
    assert capsule["dl_tensor"]["strides"] == [1, 4]
    binary = os.environ.get("DLPACK_USM_BINARY")
    if binary:
        checked = subprocess.run([binary, "capsule", "check", str(target)], capture_output=True,
                                 text=True, timeout=60)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_capture_to_an_unwritable_place_is_an_environment_error(tmp_path):
    (tmp_path / "a-file").write_text("a file, where a folder would be\n")
    result = run("capture", "numpy.arange(3)", "-o", str(tmp_path / "a-file" / "dir.json"))
    assert result.returncode == 3
    assert result.stderr.startswith("dlpack-usm: error: ")


def test_rules_lists_the_python_catalog():
    result = run("rules", "--json")
    assert result.returncode == 0
    document = json.loads(result.stdout)
    assert list(document)[:3] == ["schema", "tool", "version"]
    assert document["schema"] == "dlpack-usm.rules/1"
    ids = [rule["rule_id"] for rule in document["rules"]]
    assert "DLP-PY-CONSUMER-RENAME" in ids and len(ids) == len(set(ids))


def test_no_command_is_a_usage_error():
    assert run().returncode == 2


def test_every_option_is_in_the_manual_page():
    from dlpack_usm.__main__ import parser
    page = os.path.join(os.path.dirname(os.path.dirname(TESTS)), "man", "dlpack-usm-python.7")
    with open(page) as text:
        manual = text.read().replace("\\-", "-")
    commands = parser()._subparsers._group_actions[0].choices
    for name, command in commands.items():
        assert f"python3 -m dlpack_usm {name}" in manual.replace("\\fB", "").replace(
            ".B ", ""), name
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert option in manual, (name, option)


def test_version_names_the_tool_and_the_bridge_abi():
    import dlpack_usm
    from dlpack_usm._bridge import library
    result = run("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (f"dlpack_usm {dlpack_usm.tool_version()} "
                             f"(libdlpack_usm, bridge ABI {library.ABI_VERSION})\n")


def test_inspect_prints_what_capsule_dump_prints_of_the_captured_tensor(tmp_path):
    # The same tensor two ways: inspected live, and captured to a file that
    # the command line's capsule dump reads; the fields are the same text.
    expression = "numpy.arange(6, dtype=numpy.int16).reshape(2, 3)[:, ::-1]"
    inspected = run("inspect", expression)
    assert inspected.returncode == 0, inspected.stderr
    assert inspected.stdout.startswith(f"{expression}\n")
    assert "  capsule      dltensor_versioned\n" in inspected.stdout
    path = tmp_path / "t.json"
    assert run("capture", expression, "-o", str(path)).returncode == 0
    dumped = subprocess.run([os.environ["DLPACK_USM_BINARY"], "capsule", "dump", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert dumped.returncode == 0, dumped.stderr
    # The file's dump names the file; the rest, field by field, is the same
    # but for where each process's allocator put the elements.
    def fields(text):
        return [line for line in text.splitlines()[1:]
                if not line.lstrip().startswith("data ") and "alignment" not in line]
    assert fields(dumped.stdout) == fields(inspected.stdout)[:-1]
    for words in ("kDLInt", "strides      [3, -1]", "contiguity"):
        assert words in inspected.stdout


def test_inspect_json_is_the_tensor_of_capsule_dump_json():
    result = run("inspect", "--json", "numpy.ones(3)")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["capsule_name"] == "dltensor_versioned"
    assert document["tensor"]["dl_tensor"]["shape"] == [3]


def test_inspect_of_an_object_without_dlpack_is_a_usage_error():
    result = run("inspect", "object()")
    assert result.returncode == 2
    assert "has no __dlpack__" in result.stderr
