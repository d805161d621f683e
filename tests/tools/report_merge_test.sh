#!/usr/bin/env bash
# `report merge` of the default check run in three shards gives what the
# unsharded run gives: the same cases with the same outcomes and verdicts,
# the same gate and exit code; the merged report is valid against
# conformance/schema/report.schema.json and its JUnit XML is well formed.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
cd "$work"

whole_status=0
"$tool" check --report whole.json >/dev/null || whole_status=$?
for shard in 1 2 3; do
  # Findings are fine (exit 1); a shard without its report is a failure of
  # the run, shown with what the tool said.
  shard_status=0
  "$tool" check --shard "$shard/3" --report "shard$shard.json" >"shard$shard.out" \
    2>"shard$shard.err" || shard_status=$?
  if [[ ! -f "shard$shard.json" ]]; then
    echo "shard $shard/3 exited $shard_status and wrote no report:"
    tail -n 20 "shard$shard.err" "shard$shard.out"
    exit 1
  fi
done
merge_status=0
"$tool" report merge shard1.json shard2.json shard3.json --report merged.json \
  --junit merged.xml --failures failures.txt >summary.txt || merge_status=$?
tail -n 3 summary.txt
[[ $merge_status -eq $whole_status ]] ||
  { echo "merge exited $merge_status, the unsharded check $whole_status"; exit 1; }

"$python" "$source/tests/tools/validate_outputs.py" schema \
  "$source/conformance/schema/report.schema.json" merged.json shard1.json
"$python" "$source/tests/tools/validate_outputs.py" junit merged.xml
"$python" - whole.json merged.json <<'PY'
import json, sys
whole, merged = (json.load(open(path)) for path in sys.argv[1:])
def verdicts(report):
    return sorted((r["id"], r["outcome"], r["verdict"]) for r in report["results"])
if verdicts(whole) != verdicts(merged):
    missing = set(verdicts(whole)) ^ set(verdicts(merged))
    sys.exit(f"merged verdicts differ from the unsharded run's: {sorted(missing)[:10]}")
for key in ("gate", "verdicts", "outcomes", "total"):
    if whole["summary"][key] != merged["summary"][key]:
        sys.exit(f"summary {key}: unsharded {whole['summary'][key]}, merged {merged['summary'][key]}")
print(f"3 shards merged: {len(merged['results'])} cases, the unsharded run's verdicts")
PY
