#!/usr/bin/env python3
"""The layers of src/, and the one rule between them: a file includes only
from its own layer and the layers below it. A new folder has to be placed
in LAYERS before anything builds on it; a new upward include fails here
(ctest: layers), naming the file, the line and the two layers.

Usage: check_layers.py [SRC]   (SRC defaults to the src/ beside tests/)"""

import os
import re
import sys

# Bottom to top. A layer is a folder under src/, or a folder under one of
# them where that folder holds layers of its own (suite/). What each layer
# is for: DESIGN.md, "The house".
LAYERS = [
    "common",         # errors, files, processes, text: no DLPack in it
    "dlpack",         # the header's types and names
    "facts",          # what a tensor says, read field by field
    "rules",          # the rule catalog and the checks that fire them
    "capsule",        # capsule files: parse, dump
    "runtime",        # OpenCL, SYCL (dpctl), CUDA: devices and USM
    "exchange",       # export and import through DLPack on a runtime
    "plugin",         # loading a library under test (plugin ABI)
    "matrix",         # the live and consumer matrices of offered tensors, views
    "suite/model",    # case, findings, check run, selection, expectations
    "report",         # printers and formats of a run (readers beside writers)
    "suite/runner",   # workers, their protocol, containment, signals
    "suite/cases",    # the case sources (vectors, live, producer, consumer)
    "suite/gate",     # run_check, report merge: one gate decision, one exit code
    "compat",         # the compatibility matrix: an analysis of finished reports
    "bridge",         # libdlpack_usm's C ABI for Python
    "cli",            # the commands
]
# Headers that are not the project's layers: the public ABI in include/.
EXTERNAL = ("dlpack_usm/", "dlpack/dlpack.h", "generated/")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(relative):
    """The layer of a path under src/ ("suite/cases/live/x.hpp" ->
    "suite/cases"), or None for a folder LAYERS does not place."""
    parts = relative.split("/")
    for depth in (2, 1):
        candidate = "/".join(parts[:depth])
        if len(parts) > depth and candidate in LAYERS:
            return candidate
    return None


def violations(src):
    """Every include that goes up, and every file outside a known layer."""
    rank = {name: index for index, name in enumerate(LAYERS)}
    found = []
    for folder, _, files in sorted(os.walk(src)):
        for name in sorted(files):
            if not name.endswith((".hpp", ".cpp", ".h", ".in")):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, src).replace(os.sep, "/")
            own = layer_of(relative)
            if own is None:
                found.append(f"{relative}: in no layer; place its folder in LAYERS "
                             f"(tests/layers/check_layers.py)")
                continue
            text = open(path, encoding="utf-8").read()
            for match in INCLUDE.finditer(text):
                target = match.group(1)
                if target.startswith(EXTERNAL) or "/" not in target:
                    continue
                other = layer_of(target)
                line = text.count("\n", 0, match.start()) + 1
                if other is None:
                    found.append(f"{relative}:{line}: includes {target}, in no layer")
                elif rank[other] > rank[own]:
                    found.append(f"{relative}:{line}: {own} includes {target} of {other}, "
                                 f"a layer above it")
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    src = argv[1] if len(argv) > 1 else os.path.join(here, os.pardir, os.pardir, "src")
    found = violations(src)
    for line in found:
        print(f"layers: {line}", file=sys.stderr)
    if found:
        print(f"layers: {len(found)} include(s) break the layering; move the code down, "
              "or the include up", file=sys.stderr)
        return 1
    print(f"layers: {len(LAYERS)} layers, every include goes down or sideways")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
