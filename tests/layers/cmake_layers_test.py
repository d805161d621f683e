#!/usr/bin/env python3
"""The CMake libraries of src/ are the layers of check_layers.py, in its
order (ctest: cmake_layers): CMakeLists.txt's DLPACK_USM_LAYERS lists every
layer below the bridge and the CLI, which are targets of their own."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402

OWN_TARGETS = ("bridge", "cli")  # libdlpack_usm.so and the dlpack-usm executable


def cmake_layers(text):
    """The folders of set(DLPACK_USM_LAYERS ...), in order."""
    found = re.search(r"set\(DLPACK_USM_LAYERS\s+([^)]*)\)", text)
    return found.group(1).split() if found else []


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, os.pardir, os.pardir, "CMakeLists.txt")
    listed = cmake_layers(open(path, encoding="utf-8").read())
    expected = [layer for layer in check_layers.LAYERS if layer not in OWN_TARGETS]
    if listed != expected:
        print(f"cmake_layers: CMakeLists.txt's DLPACK_USM_LAYERS is {listed}, "
              f"tests/layers/check_layers.py's LAYERS (less {', '.join(OWN_TARGETS)}) is "
              f"{expected}; keep them one list", file=sys.stderr)
        return 1
    print(f"cmake_layers: {len(listed)} libraries, one per layer, in the layers' order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
