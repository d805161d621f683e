#!/usr/bin/env python3
"""The layers of the Python package (python/dlpack_usm), and the rule
between them that src/ has too: a module imports only from its own layer
and the layers below it. A new module or folder has to be placed in LAYERS
before anything builds on it; a new upward import fails here (ctest:
layers_python), naming the file, the line and the two layers. The package
keeps only what must run inside the interpreter (the calls into a library
and what they show); the plan, the verdicts and every output are the
core's, through the bridge or `dlpack-usm check`.

Usage: python_layers.py [PACKAGE]   (PACKAGE defaults to python/dlpack_usm)"""

import ast
import os
import sys

# Bottom to top: a module (a file of the package's top) or a folder.
LAYERS = [
    "_location",    # written by CMake: where the library and the binary are
    "_bridge",      # libdlpack_usm through ctypes, errors, capsules, a contained call
    "rules",        # the rule catalog, read through the bridge
    "_package_version",  # the version a report names for an imported package
    "_expression",  # EXPR evaluated, modules imported on first use
    "producer",     # a producer observed: capsules read, the protocol's steps
    "consumer",     # a consumer observed: a cell offered, its result read back
    "profile",      # a library's producer side observed: cells made, requests asked
    "handoff",      # one library's tensor handed to another, observed; its remedies
    "device_ids",   # device-ids: one allocation exported by every kDLOneAPI producer
    "_worker",      # the Python worker of the tool's runner
    "repro",        # a crash report's standalone snippet: a cell and EXPR outside the tool
    "_frontend",    # check | consume | profile as `dlpack-usm check`
    "__init__",     # the package's API
    "__main__",     # python -m dlpack_usm
]


def layer_of(relative):
    """The layer of a path under the package ("consumer/_case.py" ->
    "consumer", "rules.py" -> "rules"), or None for one LAYERS lacks."""
    first = relative.split("/")[0]
    name = first[:-3] if first.endswith(".py") else first
    return name if name in LAYERS else None


def imported_layers(tree, relative):
    """(line, layer) of every import of the package itself in `tree`."""
    depth = relative.count("/")  # how deep the module is below the package
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        climbs = node.level - 1  # a level of 1 is the module's own folder
        if climbs > depth:
            continue
        if climbs < depth:
            # Within its own folder: its own layer.
            found.append((node.lineno, layer_of(relative)))
            continue
        if node.module:
            name = node.module.split(".")[0]
            found.append((node.lineno, layer_of(name) or layer_of(name + ".py") or name))
            continue
        # `from . import x`: a module of the package, or a name its
        # __init__ gives.
        for alias in node.names:
            found.append((node.lineno, layer_of(alias.name) or layer_of(alias.name + ".py") or
                          "__init__"))
    return found


def violations(package):
    rank = {name: index for index, name in enumerate(LAYERS)}
    found = []
    for folder, _, files in sorted(os.walk(package)):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, package).replace(os.sep, "/")
            own = layer_of(relative)
            if own is None:
                found.append(f"{relative}: in no layer; place it in LAYERS "
                             "(tests/layers/python_layers.py)")
                continue
            tree = ast.parse(open(path, encoding="utf-8").read(), relative)
            for line, other in imported_layers(tree, relative):
                if other not in rank:
                    found.append(f"{relative}:{line}: imports {other}, in no layer")
                elif rank[other] > rank[own]:
                    found.append(f"{relative}:{line}: {own} imports {other}, a layer above it")
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    package = argv[1] if len(argv) > 1 else os.path.join(here, os.pardir, os.pardir, "python",
                                                         "dlpack_usm")
    found = violations(package)
    for line in found:
        print(f"layers_python: {line}", file=sys.stderr)
    if found:
        print(f"layers_python: {len(found)} import(s) break the layering", file=sys.stderr)
        return 1
    print(f"layers_python: {len(LAYERS)} layers, every import goes down or sideways")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
