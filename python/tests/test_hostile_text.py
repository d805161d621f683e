"""Nothing a library or a report says can command the CI, the terminal or
the page (issue 36): a library whose version, exceptions and refusals hold
GitHub workflow commands, terminal controls, a bidi override, XML's
non-characters and HTML (hostile_text.py) goes through every output of
check, report merge and report matrix, and each output is read back by its
consumer's own rules: GitHub's command syntax for every log line, expat for
JUnit XML, and for Markdown and HTML that no tag of the library's survives."""

import json
import re
import subprocess
import xml.parsers.expat

from conftest import package_environment, run_package

from dlpack_usm import _frontend

# What GitHub's runner acts on in a log line: "::cmd ...::" at its start,
# the legacy "##[cmd]" anywhere.
COMMAND_AT_START = re.compile(r"^::([a-z-]+)( [^:]*)?::")
TOOL_COMMANDS = {"error", "warning", "notice", "group", "endgroup"}
# C0 (but tab), DEL, C1, bidi controls, line and paragraph separators.
HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u061c\u200e\u200f\u2028-\u202e"
                    "\u2066-\u2069\ufeff\ufffe\uffff]")


def assert_log_safe(text, where):
    for number, line in enumerate(text.split("\n"), 1):
        assert "##[" not in line, f"{where}:{number}: {line!r}"
        assert not HIDDEN.search(line), f"{where}:{number}: {line!r}"
        command = COMMAND_AT_START.match(line)
        if line.startswith("::"):
            assert command and command.group(1) in TOOL_COMMANDS, f"{where}:{number}: {line!r}"


# In Markdown a tag needs a '<' that no backslash escapes, outside code:
# the tool's own are <details> and <summary>.
FENCED = re.compile(r"^(`{3,})[^\n]*\n.*?^\1\s*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
FOREIGN_TAG = re.compile(r"(?<!\\)<(?!/?(details|summary)>)")


def assert_no_foreign_tag(text, where):
    """No tag of the library's survives: in HTML every '<' of its text is an
    entity; in Markdown, escaped or inside code."""
    prose = CODE_SPAN.sub("", FENCED.sub("", text))
    found = FOREIGN_TAG.search(prose)
    assert found is None, f"{where}: {prose[max(0, found.start() - 80):found.start() + 80]!r}"


def assert_no_html_tag(page, where):
    """An HTML page: the library's '<img' never reaches the markup."""
    assert "<img" not in page.lower(), where


def run_check(tmp_path, *libraries):
    outputs = {name: str(tmp_path / name) for name in
               ("report.json", "junit.xml", "summary.md", "failures.txt")}
    command = [_frontend.binary(), "check", "--python", __import__("sys").executable,
               *libraries, "--format", "github", "-v", "--report", outputs["report.json"],
               "--junit", outputs["junit.xml"], "--summary-md", outputs["summary.md"],
               "--failures", outputs["failures.txt"]]
    result = subprocess.run(command, capture_output=True, text=True,
                            env=package_environment(), timeout=600)
    return result, outputs


def assert_outputs_safe(result, outputs, where):
    assert_log_safe(result.stdout, f"{where} stdout")
    assert_log_safe(result.stderr, f"{where} stderr")
    with open(outputs["junit.xml"], "rb") as junit:
        xml.parsers.expat.ParserCreate().Parse(junit.read(), True)
    with open(outputs["summary.md"]) as summary:
        markdown = summary.read()
    assert_no_foreign_tag(markdown, f"{where} summary.md")
    assert_log_safe(markdown, f"{where} summary.md")
    with open(outputs["report.json"]) as report:
        json.load(report)


def test_check_of_a_hostile_library_writes_only_text(tmp_path):
    result, outputs = run_check(tmp_path, "--python-producer", "hostile_text.Array()",
                                "--python-consumer", "hostile_text.from_dlpack",
                                "--python-library", "hostile_text")
    assert result.returncode in (0, 1, 3), result.stdout + result.stderr
    assert "add-mask" in result.stdout + result.stderr or "add-mask" in open(
        outputs["report.json"]).read(), "the hostile text reached no output at all"
    assert_outputs_safe(result, outputs, "check")


def test_report_merge_and_matrix_of_its_report_write_only_text(tmp_path):
    result, outputs = run_check(tmp_path, "--python-library", "hostile_text")
    merged = {name: str(tmp_path / f"merged-{name}") for name in
              ("report.json", "junit.xml", "summary.md", "failures.txt")}
    merge = subprocess.run(
        [_frontend.binary(), "report", "merge", outputs["report.json"], "--format", "github",
         "-v", "--report", merged["report.json"], "--junit", merged["junit.xml"],
         "--summary-md", merged["summary.md"], "--failures", merged["failures.txt"]],
        capture_output=True, text=True, timeout=120)
    assert merge.returncode in (0, 1), merge.stderr
    assert_outputs_safe(merge, merged, "report merge")
    for form in ("text", "md", "html"):
        page = tmp_path / f"matrix.{form}"
        matrix = subprocess.run([_frontend.binary(), "report", "matrix", outputs["report.json"],
                                 "--format", form, "--output", str(page)],
                                capture_output=True, text=True, timeout=120)
        assert matrix.returncode == 0, matrix.stderr
        text = page.read_text()
        if form == "html":
            assert_no_html_tag(text, "matrix.html")
        else:
            assert_log_safe(text, f"matrix.{form}")
        if form == "md":
            assert_no_foreign_tag(text, "matrix.md")


def test_python_front_ends_print_a_hostile_version_as_text(tmp_path):
    for command in (("profile", "hostile_text"), ("consume", "hostile_text.from_dlpack"),
                    ("check", "hostile_text.Array()")):
        result = run_package(*command, "--format", "github", "-v")
        assert result.returncode in (0, 1, 3), result.stdout + result.stderr
        assert_log_safe(result.stdout, f"{command[0]} stdout")
        assert_log_safe(result.stderr, f"{command[0]} stderr")
