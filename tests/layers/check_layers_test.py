#!/usr/bin/env python3
"""The layering check fails for an upward include and for a folder outside
the layers, and passes for the tree as it is (ctest: layers)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402
from test_support import expect, tree  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, os.pardir, os.pardir, "src")
    expect(check_layers.violations(src) == [], "the tree breaks no layer")

    upward = tree({"runtime/probe.cpp": '#include "common/error.hpp"\n'
                   '#include "suite/model/case.hpp"\n',
                   "suite/model/case.hpp": "",
                   "common/error.hpp": ""})
    found = check_layers.violations(upward)
    expect(found == ["runtime/probe.cpp:2: runtime includes suite/model/case.hpp of "
                     "suite/model, a layer above it"], f"an upward include is named: {found}")
    expect(check_layers.main(["check_layers", upward]) == 1, "an upward include fails")

    within = tree({"suite/cases/live/a.cpp": '#include "suite/cases/plugin/b.hpp"\n'
                   '#include "suite/runner/runner.hpp"\n#include "dlpack_usm/plugin.h"\n',
                   "suite/cases/plugin/b.hpp": "", "suite/runner/runner.hpp": ""})
    expect(check_layers.violations(within) == [], "sideways and downward includes pass")

    stray = tree({"newfolder/x.cpp": ""})
    expect(check_layers.violations(stray) ==
           ["newfolder/x.cpp: in no layer; place its folder in LAYERS "
            "(tests/layers/check_layers.py)"], "a folder outside the layers is named")
    print("layers: the check fails on an upward include and on an unplaced folder")


if __name__ == "__main__":
    main()
