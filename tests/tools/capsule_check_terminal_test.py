#!/usr/bin/env python3
"""`dlpack-usm capsule check` on a terminal: each tensor's line comes as it
is checked, so a person sees every tensor before the error of a line that
follows them (elsewhere the text goes out in 64 KiB pieces). A capture of
2,000 tensors, more than 64 KiB of text, then a broken line, with stdout
and stderr on one terminal: the last tensor's line comes before the error,
in text and with --json (whose entries go out in 64 KiB pieces elsewhere).

Usage: capsule_check_terminal_test.py TOOL"""

import os
import pty
import subprocess
import sys
import tempfile

from terminal_output import read_until_closed

LINE = ('{{"version": {{"major": 1, "minor": 3}}, "flags": 0, "deleter": true, '
        '"manager_ctx": true, "dl_tensor": {{"data": "0x7f0000000000", "device": '
        '{{"device_type": "kDLCPU", "device_id": 0}}, "ndim": 1, "dtype": {{"code": '
        '"kDLFloat", "bits": 32, "lanes": 1}}, "shape": [4], "strides": [1], '
        '"byte_offset": 0}}, "origin": "param-{}"}}\n')
TENSORS = 2000


def terminal_output(tool, capture, options):
    """What `capsule check` wrote on a terminal that has both its streams."""
    master, slave = pty.openpty()
    command = subprocess.Popen([tool, "capsule", "check", *options, capture],
                               stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    data = read_until_closed(master)
    return command.wait(timeout=60), data.decode("utf-8", "replace")


def main(tool):
    with tempfile.TemporaryDirectory() as work:
        capture = os.path.join(work, "capture.jsonl")
        with open(capture, "w", encoding="utf-8") as out:
            out.writelines(LINE.format(i) for i in range(TENSORS))
            out.write('{"broken": \n')
        for options, last_tensor in (
                (["--color", "never"],
                 f"capture.jsonl#{TENSORS - 1} (param-{TENSORS - 1})  no findings"),
                (["--json"], f'capture.jsonl#{TENSORS - 1} (param-{TENSORS - 1})",')):
            status, text = terminal_output(tool, capture, options)
            last = text.find(last_tensor)
            error = text.find("dlpack-usm: error:")
            if status != 2 or last < 0 or error < 0:
                sys.exit(f"{options}: exit {status}, the last tensor at {last}, the error at "
                         f"{error}:\n{text[-2000:]}")
            if last > error:
                sys.exit(f"{options}: on a terminal the error came before the last tensor:\n"
                         f"{text[-2000:]}")
    print(f"capsule check on a terminal: {TENSORS} tensors, then the error (text and --json)")

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
