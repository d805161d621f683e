#!/usr/bin/env bash
# One bug reads as one block (issue 35): `dlpack-usm check --producer` on the
# fixture producer whose only bug is that it leaves byte_offset 0 gives at
# most 3 failure groups in the text summary, at most 3 `::error` annotations
# with --format github, and a --summary-md step summary under 60 lines. The
# fixture producer that crashes on every case, stopped by
# --max-consecutive-hangs, reads as one group (its crash) and the stop's one
# line, and as two `::error` annotations. A consumer that forges results
# (each message quotes its own case's id) is one group, and one with a state
# bug (each message names the case before it and how its case ends alone)
# two: the crashes, and the one case whose crash is charged to another rule.
# Arguments: TOOL WORK_DIR FIXTURE_PLUGIN_DIR
set -euo pipefail
tool=$1 work=$2 plugins=$3
rm -rf "$work" && mkdir -p "$work"
library="$plugins/libfixture_producer_ignores_byte_offset.so"

if [ -z "$("$tool" check --producer "$library" --list 2>/dev/null)" ]; then
  echo "no device runs the producer cases here: skipped"
  exit 77
fi

status=0
"$tool" check --producer "$library" --jobs 2 --format github \
  --summary-md "$work/summary.md" --failures "$work/failures.txt" \
  >"$work/out.txt" 2>"$work/err.txt" || status=$?
test "$status" = 1 || { echo "the run exited $status, not 1 (findings)"; cat "$work/err.txt"; exit 1; }

fail() {
  echo "$1"
  cat "$work/out.txt"
  exit 1
}
# "N cases not ok, in G groups (-v lists each case):"; no such line means
# no failure, which this library must have.
groups=$(sed -nE 's/^[0-9]+ cases? not ok, in ([0-9]+) groups?[ ,].*/\1/p' "$work/out.txt")
test -n "$groups" || fail "no failure groups in the summary"
test "$groups" -le 3 || fail "$groups failure groups, more than 3"
errors=$(grep -c '^::error ' "$work/out.txt" || true)
test "$errors" -ge 1 || fail "no ::error annotation"
test "$errors" -le 3 || fail "$errors ::error annotations, more than 3"
warnings=$(grep -c '^::warning ' "$work/out.txt" || true)
test "$warnings" -le 3 || fail "$warnings ::warning annotations, more than 3"
lines=$(wc -l <"$work/summary.md")
test "$lines" -lt 60 || { cat "$work/summary.md"; echo "the step summary has $lines lines"; exit 1; }
# The failures file still lists every failing case, which the summary points to.
failing=$(grep -v '^#' "$work/failures.txt" | grep -c . || true)
test "$failing" -gt "$groups" || fail "$failing failing cases listed, not more than the groups"
echo "one bug: $groups groups, $errors ::error and $warnings ::warning annotations," \
  "a $lines-line step summary, $failing failing cases in --failures"

# The crashing producer: the stop's cases are counted on the stop's line.
crasher="$plugins/libfixture_producer_crash.so"
status=0
"$tool" check --producer "$crasher" --format github >"$work/crash.txt" 2>"$work/crash-err.txt" ||
  status=$?
test "$status" = 1 || { echo "the crash run exited $status, not 1"; cat "$work/crash-err.txt"; exit 1; }
crash_groups=$(sed -nE 's/^[0-9]+ cases? not ok, in ([0-9]+) groups?[ ,].*/\1/p' "$work/crash.txt")
test "$crash_groups" = 1 || { cat "$work/crash.txt"; echo "the crash reads as ${crash_groups:-no} groups"; exit 1; }
grep -qE '^[0-9]+ cases? not run: the producer libfixture_producer_crash.so hung or crashed' \
  "$work/crash.txt" || { cat "$work/crash.txt"; echo "no stop line with its count"; exit 1; }
crash_errors=$(grep -c '^::error ' "$work/crash.txt" || true)
test "$crash_errors" = 2 || { cat "$work/crash.txt"; echo "$crash_errors ::error annotations, not 2"; exit 1; }
echo "one crashing producer: $crash_groups group, the stop's line, $crash_errors ::error annotations"

# Messages that differ in the case ids they name: one bug, not one group a case.
for expected in consumer_forges_results:1 consumer_crash_second:2; do
  fixture=${expected%%:*} most=${expected##*:}
  "$tool" check --consumer "$plugins/libfixture_$fixture.so" >"$work/$fixture.txt" 2>&1 || true
  found=$(sed -nE 's/^[0-9]+ cases? not ok, in ([0-9]+) groups?[ ,].*/\1/p' "$work/$fixture.txt")
  [[ -n $found && $found -le $most ]] ||
    { cat "$work/$fixture.txt"; echo "$fixture reads as ${found:-no} groups, more than $most"; exit 1; }
  echo "$fixture: $found group(s)"
done
