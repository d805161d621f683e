#!/usr/bin/env python3
"""The Python layering and function-length checks fail for an upward import,
an unplaced module and a function of 61 lines, and pass for the package as
it is (ctest: layers_python)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_function_length  # noqa: E402
import python_layers  # noqa: E402
from test_support import expect, tree  # noqa: E402


def check_layers():
    here = os.path.dirname(os.path.abspath(__file__))
    package = os.path.join(here, os.pardir, os.pardir, "python", "dlpack_usm")
    expect(python_layers.violations(package) == [], "the package breaks no layer")
    upward = tree({"producer/_steps.py": "from .._bridge import library\n"
                   "from .._worker import _cases\n", "_bridge/library.py": "",
                   "_worker/_cases.py": ""})
    found = python_layers.violations(upward)
    expect(found == ["producer/_steps.py:2: producer imports _worker, a layer above it"],
           f"an upward import is named: {found}")
    expect(python_layers.main(["python_layers", upward]) == 1, "an upward import fails")
    within = tree({"consumer/_case.py": "from . import _offers\nfrom ..producer import _x\n",
                   "consumer/_offers.py": "", "producer/_x.py": ""})
    expect(python_layers.violations(within) == [], "sideways and downward imports pass")
    stray = tree({"newthing.py": ""})
    expect(python_layers.violations(stray) ==
           ["newthing.py: in no layer; place it in LAYERS (tests/layers/python_layers.py)"],
           "a module outside the layers is named")


def check_lengths():
    here = os.path.dirname(os.path.abspath(__file__))
    package = os.path.join(here, os.pardir, os.pardir, "python", "dlpack_usm")
    expect(python_function_length.problems(package) == [], "no function of the package is long")
    body = "".join(f"    step({k})\n" for k in range(59))
    limits = tree({"rules.py": f"def at_the_limit():\n{body}\n\n"
                   f"def over_the_limit():\n{body}    step(59)\n"})
    found = python_function_length.problems(limits)
    expect(found == ["rules.py:63: over_the_limit is 61 lines, over 60; split it into helpers "
                     "that say what each part does"], f"61 lines fail, 60 pass: {found}")


def main():
    check_layers()
    check_lengths()
    print("layers_python: the checks fail on an upward import, an unplaced module and a long "
          "function")


if __name__ == "__main__":
    main()
