#!/usr/bin/env python3
"""No function of the Python package (python/dlpack_usm) runs over
MAX_LINES lines, as none of src/ does (function_length.py): counted from
its `def` line to its last line, decorators left out. A longer one fails
here (ctest: function_length_python), naming file:line, the function and
its length.

Usage: python_function_length.py [PACKAGE]   (PACKAGE defaults to python/dlpack_usm)"""

import ast
import os
import sys

MAX_LINES = 60


def problems(package):
    found = []
    for folder, _, files in sorted(os.walk(package)):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, package).replace(os.sep, "/")
            tree = ast.parse(open(path, encoding="utf-8").read(), relative)
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                length = node.end_lineno - node.lineno + 1
                if length > MAX_LINES:
                    found.append(f"{relative}:{node.lineno}: {node.name} is {length} lines, "
                                 f"over {MAX_LINES}; split it into helpers that say what each "
                                 "part does")
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    package = argv[1] if len(argv) > 1 else os.path.join(here, os.pardir, os.pardir, "python",
                                                         "dlpack_usm")
    found = problems(package)
    for line in found:
        print(f"function_length_python: {line}", file=sys.stderr)
    if found:
        return 1
    print(f"function_length_python: no function over {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
