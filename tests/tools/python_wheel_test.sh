#!/usr/bin/env bash
# `pip install` as a Python user does it: the wheel pyproject.toml builds
# (scikit-build-core over the project's CMake build) goes into a fresh
# virtual environment, which then has `python -m dlpack_usm` and the
# `dlpack-usm` executable with its own conformance suite, and nothing of the
# source or build trees on its paths.
# Arguments: PYTHON SOURCE_DIR WORK_DIR VERSION
# Exit 77 (a skip) where PYTHON lacks scikit-build-core, or the fresh venv
# cannot fetch numpy from the package index, unless DLPACK_USM_REQUIRE_PEERS
# or DLPACK_USM_REQUIRE_USM is 1 (CI): then those fail.
set -euo pipefail
python=$1 source=$2 work=$3 version=$4
required=0
[[ ${DLPACK_USM_REQUIRE_PEERS:-} == 1 || ${DLPACK_USM_REQUIRE_USM:-} == 1 ]] && required=1
unavailable() {
  echo "python_wheel: $1"
  [[ $required == 1 ]] && exit 1
  exit 77
}

"$python" -c "import scikit_build_core" 2>/dev/null ||
  unavailable "$python has no scikit-build-core (scripts/setup.sh installs it into its venv)"
rm -rf "$work/dist" "$work/venv" && mkdir -p "$work"
# Two compilers at a time, as the README's build: ctest runs other tests beside.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
# The build folder is kept between runs: a second run builds what changed.
"$python" -m pip wheel "$source" --no-build-isolation --no-deps --quiet \
  --disable-pip-version-check -w "$work/dist" -C build-dir="$work/build"
wheel=$(echo "$work/dist/dlpack_usm-$version-"*.whl)
[[ -f $wheel ]] || { echo "no wheel dlpack_usm-$version-*.whl in $work/dist"; exit 1; }
"$python" -m zipfile -l "$wheel" >"$work/wheel-contents.txt"
for entry in dlpack_usm/__main__.py dlpack_usm/libdlpack_usm.so.1 dlpack_usm/_location.py \
  dlpack_usm/_bridge/library.py "data/scripts/dlpack-usm" \
  "data/data/share/dlpack-usm/conformance/manifest.json" "data/data/share/man/man1/dlpack-usm.1" \
  "data/data/share/dlpack-usm/plugin_repro.c"; do
  grep -q "$entry" "$work/wheel-contents.txt" || { echo "the wheel lacks $entry:"; cat "$work/wheel-contents.txt"; exit 1; }
done
if grep -qE '(^|/)(tests|fixtures|bench)/' "$work/wheel-contents.txt"; then
  echo "the wheel carries the source tree's tests, fixtures or benchmarks"; exit 1
fi

# The fresh environment knows nothing of this checkout: no PYTHONPATH, run
# from its own folder, the library found beside the package.
"$python" -m venv "$work/venv"
venv_python=$work/venv/bin/python
unset PYTHONPATH DLPACK_USM_LIBRARY DLPACK_USM_CONFORMANCE_DIR
"$venv_python" -m pip install --quiet --disable-pip-version-check "$wheel"
numpy_version=$("$python" -c "import numpy; print(numpy.__version__)" 2>/dev/null || echo "")
"$venv_python" -m pip install --quiet --disable-pip-version-check "numpy${numpy_version:+==$numpy_version}" ||
  unavailable "the fresh venv could not install numpy from the package index"
cd "$work"

expect() {  # expect DESCRIPTION PATTERN COMMAND...: exit 0 and PATTERN in its output
  local what=$1 pattern=$2 output
  shift 2
  output=$("$@" 2>&1) || { echo "$what failed (exit $?):"; echo "$output"; exit 1; }
  grep -qE "$pattern" <<<"$output" || { echo "$what printed no '$pattern':"; echo "$output"; exit 1; }
  echo "ok: $what"
}
expect "python -m dlpack_usm --version" "^dlpack_usm $version " "$venv_python" -m dlpack_usm --version
expect "dlpack-usm --version" "$version" "$work/venv/bin/dlpack-usm" --version
expect "the package is the installed one" "^$work/venv/lib/" \
  "$venv_python" -c "import dlpack_usm, dlpack_usm._bridge.library as l; print(dlpack_usm.__file__); l.library()"
# The front-ends run the wheel's dlpack-usm, whose Python workers import the
# wheel's package.
expect "python -m dlpack_usm check" "gate: PASSED \\(14 cases run" \
  "$venv_python" -m dlpack_usm check "numpy.ones(3)"
expect "python -m dlpack_usm consume" "gate: PASSED \\(1 case run" \
  "$venv_python" -m dlpack_usm consume numpy.from_dlpack --device cpu --cell c-order
expect "python -m dlpack_usm inspect" "kDLCPU" "$venv_python" -m dlpack_usm inspect "numpy.ones(3)"
# The executable finds the suite installed beside it (bin/../share), not the
# source tree it was built from: the report names the suite it ran.
expect "dlpack-usm check --vectors-only" "gate: PASSED" \
  "$work/venv/bin/dlpack-usm" check --vectors-only --report "$work/vectors.json"
expect "the suite is the installed one" "^$work/venv/share/dlpack-usm/conformance\$" \
  "$venv_python" -c "import json; print(json.load(open('$work/vectors.json'))['options']['suite'])"
# A plugin author with nothing but the pip install: the headers (plugin.h,
# the DLPack 1.3 declarations) and pkg-config's file are in the environment,
# and the plugin page's example builds with its own command and checks clean.
for file in include/dlpack_usm/plugin.h include/dlpack_usm/dlpack_abi.h \
  share/pkgconfig/dlpack-usm.pc share/cmake/dlpack-usm/dlpack-usm-config.cmake; do
  [[ -f $work/venv/$file ]] || { echo "the pip install lacks $file"; exit 1; }
done
expect "the plugin page's example, built against the pip install" "no finding" \
  "$python" "$source/tests/tools/plugin_page_example.py" "$source/man/dlpack-usm-plugin.7" \
  "$work/page-example" "$work/venv/share/pkgconfig" "$work/venv/bin/dlpack-usm"
# A crash snippet from the pip install (every producer case's report entry
# carries one) names the bridge the package holds, not a bare soname the
# loader would not find, and runs as pasted.
snippet=$("$python" -c "import json, sys
results = json.load(open(sys.argv[1]))['results']
print(next((case['snippet'] for case in results if case.get('snippet')), ''))" \
  "$work/page-example/out/report.json")
if [[ -z $snippet ]]; then
  [[ ${DLPACK_USM_REQUIRE_USM:-} == 1 ]] && { echo "no producer case of the pip install ran"; exit 1; }
  echo "no device with USM here: the pip install's snippet is not checked"
  exit 0
fi
bridge=$(echo "$work"/venv/lib/python*/site-packages/dlpack_usm/libdlpack_usm.so.1)
grep -qF "$bridge" <<<"$snippet" || { echo "the pip install's snippet names no $bridge:"; echo "$snippet"; exit 1; }
rm -rf "$work/snippet" && mkdir "$work/snippet"
expect "the pip install's snippet, pasted" "produce returned 0" \
  env -C "$work/snippet" sh -c "$snippet"
