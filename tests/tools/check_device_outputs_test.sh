#!/usr/bin/env bash
# The JSON of `list-devices`, `exchange` and `capsule dump` validates against
# its schema (conformance/schema): the inventory on both runtimes, round trips
# of every USM kind, layout and ABI, and the dump of every shipped capsule;
# each opens with the envelope (schema, tool, version) of this dlpack-usm.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
schemas=$source/conformance/schema
validate() { "$python" "$source/tests/tools/validate_outputs.py" schema "$@"; }
version=$("$tool" --version | cut -d' ' -f2)
envelope() { "$python" "$source/tests/tools/validate_outputs.py" envelope "$version" "$@"; }

# run OUTPUT ALLOWED_STATUS... -- COMMAND...: the command's stdout in OUTPUT,
# failing unless it exits with one of the allowed statuses.
run() {
  local output=$1 allowed=() status=0
  shift
  while [[ $1 != -- ]]; do allowed+=("$1"); shift; done
  shift
  "$tool" "$@" >"$output" || status=$?
  for wanted in "${allowed[@]}"; do [[ $status -eq $wanted ]] && return 0; done
  echo "dlpack-usm $* exited $status"
  exit 1
}

# 3: a runtime that is missing here still prints its (empty) inventory.
run "$work/devices-opencl.json" 0 3 -- list-devices --json --runtime opencl
run "$work/devices-sycl.json" 0 3 -- list-devices --json --runtime sycl
validate "$schemas/inventory.schema.json" "$work"/devices-*.json

# 1: a round trip with findings is still a complete document.
i=0
for options in "--usm device" "--usm host --dtype int8 --shape 3,4 --order negative" \
  "--usm shared --max-version 0.8 --order F" "--read-only --order strided" \
  "--order offset --shape scalar --dtype complex128"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # the options are words
  run "$work/exchange-$i.json" 0 1 -- exchange --json --runtime opencl $options
done
validate "$schemas/exchange.schema.json" "$work"/exchange-*.json

dumps=()
for file in "$source"/conformance/vectors/*/*.json "$source"/fixtures/captured/*.json \
  "$source"/fixtures/captured/defects/*-negative.json "$source"/tests/data/capsules/*; do
  i=$((i + 1))
  run "$work/dump-$i.json" 0 -- capsule dump --json "$file"
  dumps+=("$work/dump-$i.json")
done
validate "$schemas/capsule-dump.schema.json" "${dumps[@]}"
envelope "$work"/devices-*.json "$work"/exchange-*.json "${dumps[@]}"
echo "list-devices, exchange and capsule dump JSON are valid (${#dumps[@]} dumps)"
