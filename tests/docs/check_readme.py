#!/usr/bin/env python3
"""The README reads as it renders (ctest: readme).

A problem is:
  - a table split in two: a table whose second line is not the header
    separator (| --- |), such as the rows after a blank line inside a table,
    which Markdown shows as a paragraph of pipes;
  - a shell example that runs the Python package (`-m dlpack_usm`) with
    another interpreter than the venv's, /opt/dlpack-usm/venv/bin/python:
    scripts/setup.sh installs numpy, dpnp and the other peers there, and the
    system's python3 has none of them.
Before the README, the check runs on a text made wrong on purpose and fails
unless it finds each kind of problem there.

Usage: check_readme.py [README]   (README: ../../README.md)
Exit status: 0 no problem, 1 problems (one line each).
"""

import os
import re
import sys

VENV_PYTHON = "/opt/dlpack-usm/venv/bin/python"
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
MAKES_VENV = re.compile(r"-m\s+venv\s+(\S+)")
RUNS_PACKAGE = re.compile(r"(?P<interpreter>\S+)\s+-m\s+dlpack_usm\b")


def table_problems(lines):
    """Tables whose second line is not the header separator."""
    problems = []
    previous = ""
    in_code = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_code = not in_code
        starts_table = not in_code and line.startswith("|") and not previous.startswith("|")
        if starts_table:
            following = lines[number] if number < len(lines) else ""
            if not SEPARATOR.match(following):
                problems.append(f"README.md:{number}: a table without its header separator "
                                "(| --- |) on its second line: is a table split by a blank "
                                f"line above it? {line[:50]}")
        previous = "" if in_code else line
    return problems


def interpreter_problems(lines):
    """Shell examples that run dlpack_usm with an interpreter other than the venv's."""
    problems = []
    language = None
    # A venv the example makes itself (pip install into it) has the package.
    made = set()
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            language = None if language is not None else (line[3:].strip() or "text")
            made = set()
            continue
        if language not in ("sh", "bash", "shell", "console"):
            continue
        made.update(f"{folder}/bin/python" for folder in MAKES_VENV.findall(line))
        for match in RUNS_PACKAGE.finditer(line):
            if match.group("interpreter") not in made | {VENV_PYTHON}:
                problems.append(f"README.md:{number}: runs dlpack_usm with "
                                f"{match.group('interpreter')}, not {VENV_PYTHON} (the venv "
                                "scripts/setup.sh installs the Python peers into)")
    return problems


def problems_of(text):
    lines = text.splitlines()
    return table_problems(lines) + interpreter_problems(lines)


KNOWN_BAD = """# A readme

| command | what |
| --- | --- |
| a | one |

| b | two |

```sh
python3 -m dlpack_usm check "numpy.ones(3)"
/opt/dlpack-usm/venv/bin/python -m dlpack_usm rules
```
"""


def check_the_check():
    """None if the check finds each kind of problem in KNOWN_BAD, else why not."""
    found = problems_of(KNOWN_BAD)
    wanted = {"a split table": "header separator", "python3 in an example": "with python3"}
    missing = [what for what, mark in wanted.items() if not any(mark in p for p in found)]
    if missing or len(found) != 2:
        return ("the check found " + (", ".join("no " + m for m in missing) or "too much") +
                " in a text made wrong on purpose (found: " + ("; ".join(found) or "nothing") +
                ")")
    return None


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    path = argv[1] if len(argv) > 1 else os.path.join(here, os.pardir, os.pardir, "README.md")
    broken = check_the_check()
    if broken:
        print(f"check_readme: {broken}", file=sys.stderr)
        return 1
    with open(path, encoding="utf-8") as handle:
        problems = problems_of(handle.read())
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_readme: {len(problems)} problem(s) in {path}")
        return 1
    print(f"check_readme: {path} has whole tables and runs dlpack_usm with {VENV_PYTHON}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
