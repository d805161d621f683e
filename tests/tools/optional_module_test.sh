#!/usr/bin/env bash
# A test that needs a missing optional Python module names it and how to get
# it, and skips (77); where the modules are required it fails (1). Python
# without its site-packages (-S) stands in for a machine without them.
# Arguments: PYTHON SOURCE_DIR WORK_DIR
set -uo pipefail
python=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
echo '{}' >"$work/document.json"
validate=("$python" -I -S "$source/tests/tools/validate_outputs.py" schema
  "$source/conformance/schema/report.schema.json" "$work/document.json")

expect() {  # expect STATUS MODULE COMMAND...: exit STATUS, stderr naming MODULE
  local wanted=$1 module=$2
  shift 2
  "$@" >"$work/out.txt" 2>&1
  local status=$?
  if [[ $status -ne $wanted ]] || ! grep -q "the Python module $module is missing" "$work/out.txt" ||
    ! grep -q "pip install $module" "$work/out.txt" || grep -q Traceback "$work/out.txt"; then
    echo "expected exit $wanted and a message naming $module, got exit $status:"
    cat "$work/out.txt"
    exit 1
  fi
}
expect 77 jsonschema env -u DLPACK_USM_REQUIRE_PEERS -u DLPACK_USM_REQUIRE_USM "${validate[@]}"
expect 1 jsonschema env DLPACK_USM_REQUIRE_PEERS=1 "${validate[@]}"
expect 77 pytest env -u DLPACK_USM_REQUIRE_PEERS -u DLPACK_USM_REQUIRE_USM \
  "$python" -I -S "$source/tests/tools/optional_module.py" pytest
expect 1 pytest env DLPACK_USM_REQUIRE_USM=1 "$python" -I -S "$source/tests/tools/optional_module.py" pytest
echo "missing modules are named, skipped where optional and failed where required"
