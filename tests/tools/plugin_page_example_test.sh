#!/usr/bin/env bash
# The plugin page's example against a `cmake --install` prefix: the build
# tree installed into a scratch prefix, then the page's example built with
# the page's command (pkg-config pointed at that prefix alone) and checked by
# the installed tool (tests/tools/plugin_page_example.py).
# Arguments: PYTHON BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
python=$1 build=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
"$python" "$source/tests/tools/plugin_page_example.py" "$source/man/dlpack-usm-plugin.7" \
  "$work/example" "$work/prefix/share/pkgconfig" "$work/prefix/bin/dlpack-usm"
