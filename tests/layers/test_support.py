"""What the self-tests of tests/layers share: a synthetic src/ tree, and a
check that fails the test with what it expected."""

import os
import sys
import tempfile


def tree(files):
    """A src/ folder holding `files` ({relative path: text})."""
    root = tempfile.mkdtemp(prefix="layers-")
    for relative, text in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    return root


def expect(condition, what):
    if not condition:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)
