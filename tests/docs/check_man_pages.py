#!/usr/bin/env python3
"""Every man page of man/ renders at 80 columns without a troff warning
(ctest: man_pages).

Each man/*.1 and man/*.7 page is rendered as `groff -man -Tutf8 -ww
-rLL=80n` (with -t when it has a table). A problem is:
  - a warning of groff, tbl or troff on stderr;
  - a rendered line wider than 80 columns (after overstrike and escapes are
    stripped);
  - a source line that starts with ' (troff's no-break control character:
    the line is taken for a request and its text is lost; write \\&' instead).
    Comment lines ('\\" ...) are not text and pass.
Before the pages, the check runs on a page made wrong on purpose and fails
unless it finds each kind of problem there, so that a groff that ignores
the options cannot make it pass.

Usage: check_man_pages.py [--groff PATH] [MAN_DIR]   (MAN_DIR: ../../man)
Exit status: 0 no problem, 1 problems (one line each), 2 groff not runnable.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

WIDTH = 80
# CSI sequences (SGR and the like) and the other two-character escapes.
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
# troff: page.1:538: warning [...]: cannot adjust line
TROFF_MESSAGE = re.compile(r"^(?:[\w.-]+: )?(?P<file>[^:\s]+):(?P<line>\d+): (?P<text>.*)$")
# tbl: warning: file 'page.1', around line 219:\n  table wider than line width
TBL_MESSAGE = re.compile(r"^(?:[\w.-]+: )?(?P<kind>warning|error): file '(?P<file>[^']*)', "
                         r"around line (?P<line>\d+):\s*(?P<text>.*)$")


def columns(text):
    """Width of a rendered line on a terminal: East Asian wide characters
    take two columns, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def plain(line):
    """A rendered line without ANSI escapes and backspace overstrike."""
    line = ANSI.sub("", line)
    # "_\bx" (underline) and "x\bx" (bold): the character after the backspace.
    while True:
        shorter = re.sub(r"[^\x08]\x08", "", line)
        if shorter == line:
            return line.replace("\x08", "")
        line = shorter


def stderr_problems(name, stderr):
    """One problem per diagnostic of groff and its preprocessors."""
    problems = []
    lines = stderr.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k].rstrip()
        k += 1
        if not line.strip():
            continue
        tbl = TBL_MESSAGE.match(line)
        if tbl:
            text = tbl.group("text")
            # tbl puts the message itself on the next, indented line.
            if not text and k < len(lines) and lines[k].startswith((" ", "\t")):
                text = lines[k].strip()
                k += 1
            problems.append(f"{name}:{tbl.group('line')}: tbl {tbl.group('kind')}: {text}")
            continue
        troff = TROFF_MESSAGE.match(line)
        if troff:
            problems.append(f"{name}:{troff.group('line')}: troff: {troff.group('text')}")
        else:
            problems.append(f"{name}: groff: {line}")
    return problems


def source_problems(name, source):
    """Source lines that start with the no-break control character '."""
    problems = []
    for number, line in enumerate(source.splitlines(), 1):
        if line.startswith("'") and not line.startswith("'\\\""):
            problems.append(f"{name}:{number}: line starts with ' and is taken for a troff "
                            f"request, its text lost; write \\&' at its start: {line[:40]}")
    return problems


def render(groff, path):
    """(stdout, stderr) of the page rendered at WIDTH columns, plain text."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    command = [groff, "-man", "-Tutf8", "-ww", f"-rLL={WIDTH}n", f"-rLT={WIDTH}n",
               "-P-c", "-P-b", "-P-u"]
    if re.search(r"^\.TS", source, re.MULTILINE):
        command.append("-t")
    # The page by its own name, so that diagnostics name it and its lines.
    done = subprocess.run(command + [os.path.basename(path)], cwd=os.path.dirname(path),
                          capture_output=True, env=dict(os.environ, LC_ALL="C.UTF-8"))
    return (source, done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"), done.returncode)


def page_problems(groff, path):
    """Every problem of one page, each a line naming the page."""
    name = os.path.basename(path)
    source, stdout, stderr, status = render(groff, path)
    problems = source_problems(name, source) + stderr_problems(name, stderr)
    if status != 0:
        problems.append(f"{name}: groff exited with status {status}")
    for number, line in enumerate(stdout.splitlines(), 1):
        text = plain(line).rstrip()
        if columns(text) > WIDTH:
            problems.append(f"{name}: rendered line {number} is {columns(text)} columns, over "
                            f"{WIDTH}: {text.strip()[:60]}")
    return problems


KNOWN_BAD = """.TH BAD 1
.SH NAME
bad \\- a page with one of each problem
.SH DESCRIPTION
A sentence before
'\\-' swallows this line.
.TS
l l l.
""" + "\t".join(["x" * 40] * 3) + """
.TE
"""


def check_the_check(groff):
    """None if the check finds each kind of problem in KNOWN_BAD, else why not."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bad.1")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(KNOWN_BAD)
        found = page_problems(groff, path)
    wanted = {"a line that starts with '": "taken for a troff request",
              "a troff or tbl warning": "tbl warning",
              "a rendered line over 80 columns": "columns, over"}
    missing = [what for what, mark in wanted.items() if not any(mark in p for p in found)]
    if missing:
        return ("the check found no " + ", no ".join(missing) + " in a page made wrong on "
                "purpose (found: " + ("; ".join(found) or "nothing") + ")")
    return None


def main(argv):
    args = argv[1:]
    groff = "groff"
    if len(args) >= 2 and args[0] == "--groff":
        groff, args = args[1], args[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    man_dir = args[0] if args else os.path.join(here, os.pardir, os.pardir, "man")
    pages = sorted(glob.glob(os.path.join(man_dir, "*.1")) +
                   glob.glob(os.path.join(man_dir, "*.7")))
    if not pages:
        print(f"check_man_pages: no *.1 or *.7 page in {man_dir}", file=sys.stderr)
        return 1
    try:
        broken = check_the_check(groff)
    except OSError as error:
        print(f"check_man_pages: cannot run {groff}: {error}; install groff "
              "(scripts/setup.sh does)", file=sys.stderr)
        return 2
    if broken:
        print(f"check_man_pages: {broken}; is {groff} GNU groff with tbl?", file=sys.stderr)
        return 1
    problems = []
    for path in pages:
        problems += page_problems(groff, path)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_man_pages: {len(problems)} problem(s) in {len(pages)} pages of "
              f"{man_dir}: fix each line above so that every page renders at {WIDTH} "
              "columns without a warning")
        return 1
    print(f"check_man_pages: {len(pages)} pages render at {WIDTH} columns without a warning")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
