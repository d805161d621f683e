#!/usr/bin/env bash
# The rule catalogs (`dlpack-usm rules --json`, `python3 -m dlpack_usm rules
# --json`) and the findings of `capsule check --json` on every shipped vector
# validate against their schemas, which name a rule by "rule_id" only.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR PYTHON_PACKAGE_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4 package=$5
rm -rf "$work" && mkdir -p "$work"
schemas=$source/conformance/schema
validate() { "$python" "$source/tests/tools/validate_outputs.py" schema "$@"; }

"$tool" rules --json >"$work/rules.json"
PYTHONPATH=$package "$python" -m dlpack_usm rules --json >"$work/python-rules.json"
validate "$schemas/rules.schema.json" "$work/rules.json" "$work/python-rules.json"

# Findings exit 1 when a vector fires an error: that is the vectors' point.
status=0
"$tool" capsule check --json "$source"/conformance/vectors/*/*.json \
  "$source"/fixtures/captured/defects/*-negative.json >"$work/findings.json" || status=$?
[[ $status -le 1 ]] || { echo "capsule check exited $status"; exit 1; }
validate "$schemas/findings.schema.json" "$work/findings.json"
echo "rule catalogs and findings are valid"
