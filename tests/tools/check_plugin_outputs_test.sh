#!/usr/bin/env bash
# `dlpack-usm check --producer/--consumer` on the correct fixture plugins
# passes, and its report (with the libraries under test named in "plugins"),
# JUnit XML and results.jsonl are valid.
# Arguments: TOOL PYTHON SOURCE_DIR WORK_DIR FIXTURE_PLUGIN_DIR
set -euo pipefail
tool=$1 python=$2 source=$3 work=$4 plugins=$5
rm -rf "$work" && mkdir -p "$work"

"$tool" check --producer "$plugins/libfixture_producer.so" \
  --consumer "$plugins/libfixture_consumer.so" --filter 'producer/*/device/float32/*' \
  --filter 'consumer/*' --jobs 2 --report "$work/report.json" --junit "$work/junit.xml"
"$python" "$source/tests/tools/validate_outputs.py" schema \
  "$source/conformance/schema/report.schema.json" "$work/report.json"
"$python" "$source/tests/tools/validate_outputs.py" junit "$work/junit.xml"
"$python" "$source/tests/tools/validate_outputs.py" jsonl "$work/results.jsonl"
"$python" - "$work/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
names = sorted(p["name"] for p in report["plugins"])
assert names == ["fixture-consumer", "fixture-producer"], names
assert report["summary"]["gate"] == "passed"
ran = [r for r in report["results"] if r["source"] == "consumer" and r["outcome"] == "pass"]
profile = report.get("profile", [])
assert bool(profile) == bool(ran), "a consumer run that ran cases carries its capability profile"
if ran:
  assert {cell["axis"] for cell in profile} == {"dtype", "layout", "usm-kind", "version", "invalid"}
PY
grep -q '<property name="producer" value="fixture-producer 1.0' "$work/junit.xml"
if grep -q '"profile"' "$work/report.json"; then
  grep -q '/dtype-bool \[dtype=bool\]"' "$work/junit.xml"
fi

# A library that hangs on every case, stderr to a file as in CI: status lines
# come while it hangs, --max-failures stops the run (exit 1), and the report
# with its cases not_run and its stop_reasons is valid.
hang=(check --consumer "$plugins/libfixture_consumer_hang.so" --filter 'consumer/*/device/dtype-int*')
if [ -n "$("$tool" "${hang[@]}" --list 2>/dev/null)" ]; then
  status=0
  DLPACK_USM_STATUS_INTERVAL_S=0.2 "$tool" "${hang[@]}" --timeout 0.3 --jobs 1 \
    --max-failures 2 --report "$work/stopped.json" --stream "$work/stopped.jsonl" \
    >"$work/stopped.txt" 2>"$work/stopped.err" || status=$?
  test "$status" = 1 || { echo "a stopped run exited $status, not 1"; exit 1; }
  grep -Eq '^\[0/[0-9]+\] pass 0 fail 0 crash 0 timeout 0 · [0-9]+:[0-9]{2} elapsed$' \
    "$work/stopped.err" || { echo "no status line while the first case hung"; exit 1; }
  grep -Eq '^[0-9]+ cases? not run: the run stopped after 2 failures \(--max-failures 2\)$' \
    "$work/stopped.txt" || { echo "no stop line with its count"; cat "$work/stopped.txt"; exit 1; }
  "$python" "$source/tests/tools/validate_outputs.py" schema \
    "$source/conformance/schema/report.schema.json" "$work/stopped.json"
  "$python" "$source/tests/tools/validate_outputs.py" jsonl "$work/stopped.jsonl"
fi
echo "plugin check passed; report, JUnit and results.jsonl are valid"
