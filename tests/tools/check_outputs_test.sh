#!/usr/bin/env bash
# The default `dlpack-usm check` (shipped vectors and live cases on every
# device) passes on this machine, and what it writes for machines is valid:
# the report against conformance/schema/report.schema.json, the JUnit XML as
# XML with consistent counts, the streamed results.jsonl line by line.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

status=0
"$tool" check --report "$work/report.json" --junit "$work/junit.xml" \
  --failures "$work/failures.txt" >"$work/summary.txt" || status=$?
cat "$work/summary.txt"
if [[ $status -ne 0 ]]; then
  echo "check exited $status; failing cases:"
  cat "$work/failures.txt"
  exit 1
fi
"$python" "$source/tests/tools/validate_outputs.py" schema \
  "$source/conformance/schema/report.schema.json" "$work/report.json"
"$python" "$source/tests/tools/validate_outputs.py" envelope \
  "$("$tool" --version | cut -d' ' -f2)" "$work/report.json"
"$python" "$source/tests/tools/validate_outputs.py" junit "$work/junit.xml"
"$python" "$source/tests/tools/validate_outputs.py" jsonl "$work/results.jsonl"
# Every case of the report was streamed, and the gate passed.
cases=$("$python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$work/report.json")
lines=$(grep -c . "$work/results.jsonl")
[[ $cases -eq $lines ]] || { echo "report has $cases results, results.jsonl $lines lines"; exit 1; }
grep -q '"gate": "passed"' "$work/report.json"
echo "check passed with $cases cases; report, JUnit and results.jsonl are valid"
