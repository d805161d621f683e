#!/usr/bin/env python3
"""`dlpack-usm check` on a terminal: its progress line, rewritten in place,
is cut to the width COLUMNS says, else to the terminal's own, so that it
never wraps; and a terminal gets no status lines (those are for logs).

Usage: check_progress_terminal_test.py TOOL"""

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

from terminal_output import read_until_closed


def progress_lines(tool, columns=None, terminal_columns=80):
    """The progress lines `check` wrote on a terminal of `terminal_columns`
    (COLUMNS=`columns` where given), and everything it wrote there."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, terminal_columns, 0, 0))
    env = dict(os.environ, DLPACK_USM_STATUS_INTERVAL_S="0.01")
    env.pop("COLUMNS", None)
    if columns is not None:
        env["COLUMNS"] = str(columns)
    command = subprocess.Popen([tool, "check", "--vectors-only", "--filter", "vector/shape/*",
                                "--report", os.devnull],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=slave, env=env)
    os.close(slave)
    data = read_until_closed(master)
    assert command.wait(timeout=120) == 0, data
    text = data.decode("utf-8", "replace")
    segments = re.split(r"[\r\n]", text.replace("\x1b[K", ""))
    return [segment for segment in segments if segment.startswith("[")], text


def expect_cut(tool, width, **terminal):
    lines, text = progress_lines(tool, **terminal)
    assert lines, f"no progress line on a terminal: {text!r}"
    too_wide = [line for line in lines if len(line) > width - 1]
    assert not too_wide, f"wider than {width - 1} columns: {too_wide}"
    assert any(len(line) == width - 1 for line in lines), \
        f"no line was cut at {width - 1} columns: {lines}"
    assert " elapsed" not in text, f"a status line on a terminal: {text!r}"


def main(argv):
    tool = argv[1]
    expect_cut(tool, 40, columns=40, terminal_columns=100)  # COLUMNS wins
    expect_cut(tool, 30, terminal_columns=30)               # else the terminal's width
    print("check_progress_terminal: the progress line fits COLUMNS and the terminal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
