#!/usr/bin/env bash
# Every output a refactoring must leave byte for byte as it was, in one
# folder, timings and dates blanked: `check` JSON and text, `capsule dump` and
# `capsule check` (text and JSON) over every vector, `rules --json`,
# `list-devices --json`, a producer and a consumer plugin run, and the
# Python module's `check` and `consume` of numpy. Take one before and one
# after a change, then `diff -r BEFORE AFTER`.
# Usage: scripts/output_snapshot.sh OUT [BUILD]   (BUILD defaults to build)
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:?usage: scripts/output_snapshot.sh OUT [BUILD]}")
build=${2:-build}
tool=$build/dlpack-usm plugins=$build/tests/fixture-plugins
python=${DLPACK_USM_PYTHON:-/opt/dlpack-usm/venv/bin/python}
# Plugin paths name the build: two builds compared must not differ there.
build_path=$(realpath -m "$build")
mkdir -p "$out/capsule"

# Wall times, dates, addresses, temporary paths and the build's path differ
# from run to run; nothing else may.
blank() {
  sed -E -e 's/"(duration_ms|started_at|finished_at|elapsed_s|median_s|time|timestamp)": *("[^"]*"|[0-9.e+-]+)/"\1": "-"/g' \
    -e 's/ in [0-9]+(\.[0-9]+)? (s|ms)\b/ in - \2/g' \
    -e 's/\(([0-9]+(\.[0-9]+)?) (s|ms)\)/(- \3)/g' -e 's/time="[0-9.]+"/time="-"/g' -e 's/timestamp="[^"]*"/timestamp="-"/g' \
    -e 's/0x[0-9a-f]{6,16}/0xADDRESS/g' -e 's/\b(pid|PID) [0-9]+/\1 N/g' -e "s#$out#OUT#g" -e "s#$build_path#BUILD#g"
}
run() {  # run NAME COMMAND...: stdout, stderr and exit code, blanked
  local name=$1
  shift
  "$@" > "$out/$name.out" 2> "$out/$name.err"
  echo "rc $?" >> "$out/$name.out"
  for stream in out err; do
    blank < "$out/$name.$stream" > "$out/$name.$stream.tmp" && mv "$out/$name.$stream.tmp" "$out/$name.$stream"
  done
}

run check-text $tool check
run check-json $tool check --report "$out/check-report.json" --junit "$out/check-junit.xml"
for file in check-report.json check-junit.xml; do
  [ -f "$out/$file" ] && blank < "$out/$file" > "$out/$file.tmp" && mv "$out/$file.tmp" "$out/$file"
done
# The stream comes in the order the cases finish, which the scheduler decides.
[ -f "$out/results.jsonl" ] && blank < "$out/results.jsonl" | sort > "$out/results.jsonl.tmp" &&
  mv "$out/results.jsonl.tmp" "$out/results.jsonl"
run rules-json $tool rules --json
run list-devices-json $tool list-devices --json
for vector in $(find conformance/vectors -name '*.json' | sort); do
  name=$(echo "${vector#conformance/vectors/}" | tr / _)
  run "capsule/dump-$name" $tool capsule dump "$vector"
  run "capsule/dump-json-$name" $tool capsule dump --json "$vector"
  run "capsule/check-$name" $tool capsule check "$vector"
  run "capsule/check-json-$name" $tool capsule check --json "$vector"
done
run producer-plugin $tool check --producer $plugins/libfixture_producer_f_strides.so
run consumer-plugin $tool check --consumer $plugins/libfixture_consumer_ignores_byte_offset.so
export PYTHONPATH=$build/python DLPACK_USM_BINARY=$tool
# A view one element in: aligned to 4 bytes whatever the allocator gave.
run python-check "$python" -m dlpack_usm check "numpy.arange(7, dtype=numpy.float32)[1:]"
run python-consume "$python" -m dlpack_usm consume numpy.from_dlpack --report "$out/consume.json"
[ -f "$out/consume.json" ] && blank < "$out/consume.json" > "$out/consume.json.tmp" && mv "$out/consume.json.tmp" "$out/consume.json"
echo "snapshot: $(find "$out" -type f | wc -l) files in $out"
