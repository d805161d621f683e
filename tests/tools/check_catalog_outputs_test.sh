#!/usr/bin/env bash
# The rule catalogs (`dlpack-usm rules --json`, `python3 -m dlpack_usm rules
# --json`), one rule told whole (`rules ID --json`, `explain ID --json`) and
# the findings of `capsule check --json` on every shipped vector validate
# against their schemas, which name a rule by "rule_id" only; each opens
# with the envelope (schema, tool, version) of this dlpack-usm.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR PYTHON_PACKAGE_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4 package=$5
rm -rf "$work" && mkdir -p "$work"
schemas=$source/conformance/schema
validate() { "$python" "$source/tests/tools/validate_outputs.py" schema "$@"; }
version=$("$tool" --version | cut -d' ' -f2)
envelope() { "$python" "$source/tests/tools/validate_outputs.py" envelope "$version" "$@"; }

"$tool" rules --json >"$work/rules.json"
PYTHONPATH=$package "$python" -m dlpack_usm rules --json >"$work/python-rules.json"
validate "$schemas/rules.schema.json" "$work/rules.json" "$work/python-rules.json"
"$tool" rules DLP-STRIDES-NULL --json >"$work/rule.json"
"$tool" explain DLP-DEVICE-TYPE-UNKNOWN --json >"$work/explained.json"
validate "$schemas/rule-explanation.schema.json" "$work/rule.json" "$work/explained.json"

# Findings exit 1 when a vector fires an error: that is the vectors' point.
status=0
"$tool" capsule check --json "$source"/conformance/vectors/*/*.json \
  "$source"/fixtures/captured/defects/*-negative.json >"$work/findings.json" || status=$?
[[ $status -le 1 ]] || { echo "capsule check exited $status"; exit 1; }
validate "$schemas/findings.schema.json" "$work/findings.json"
envelope "$work/rules.json" "$work/python-rules.json" "$work/rule.json" "$work/explained.json" \
  "$work/findings.json"
echo "rule catalogs and findings are valid"
