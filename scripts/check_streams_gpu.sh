#!/usr/bin/env bash
# The stream contract on the GPU machine (issue 27), exactly its checks and
# tests: builds the tool, the bridge and the stream fixture plugins; runs
# `check --producer` on the asynchronous fixture producers over the OpenCL
# devices there (PoCL 5.0 with USM); `python3 -m dlpack_usm check` of torch,
# cupy and jax arrays with their result per stream value; the broken CUDA
# producer (python/tests/cuda_producers.py LateWrite(wait=False)) RUNS times
# to measure its catch rate, and its twin as many times (never caught); the
# stream each CUDA consumer (torch, cupy, jax) passes under `consume`; and
# python/tests/test_stream_race.py and test_cuda_consumer_streams.py.
# Everything goes to OUT (default ./streams-run); the last lines say what to
# look for.
# Usage: scripts/check_streams_gpu.sh [OUT] [JOBS] [RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-streams-run}") jobs=${2:-16} runs=${3:-20} build=build-streams
mkdir -p "$out"
exec > >(tee "$out/run.log") 2>&1
start=$(date +%s)
cmake -S . -B $build -DDLPACK_USM_BENCH=OFF > "$out/cmake.log" 2>&1 &&
  cmake --build $build -j"$jobs" --target dlpack-usm dlpack_usm_python fixture_producer \
    fixture_producer_async fixture_producer_skips_wait > "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
tool=$build/dlpack-usm
plugins=$build/tests/fixture-plugins
export PYTHONPATH=$PWD/$build/python:$PWD/python/tests

# C: the stream cases of the fixture producers on the OpenCL devices.
for library in producer_async producer_skips_wait; do
  $tool check --runtime opencl --producer "$plugins/libfixture_$library.so" \
    --filter 'producer/*/*/float32/stream' --stream-attempts 16 \
    --report "$out/c-$library.json" > "$out/c-$library.txt" 2>&1
  echo "check --producer $library: exit $?"
  grep -E "stream|DLP-PRODUCER-STREAM|no race" "$out/c-$library.txt" | head -8
done

# Python: every stream value of the three CUDA libraries.
for expr in "torch.arange(4096., device='cuda')" "cupy.arange(4096, dtype=cupy.float32)" \
            "jax.numpy.arange(4096.)"; do
  python3 -m dlpack_usm check --json --stream-attempts 16 "$expr" > "$out/py-${expr%%.*}.json"
  echo "check $expr: exit $?"
  python3 - "$out/py-${expr%%.*}.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for item in doc["findings"]:
    if item["rule_id"].startswith("DLP-PY-STREAM"):
        print("   ", item["severity"], item["rule_id"], item["message"][:300])
for note in doc["notes"]:
    if note.startswith(("stream", "dl_device")):
        print("    note:", note[:300])
PY
done

# The broken producer and its twin, RUNS checks each: the catch rates.
for wait in False True; do
  caught=0
  for i in $(seq "$runs"); do
    python3 -m dlpack_usm check --json --no-consumer --stream-attempts 16 \
      "cuda_producers.LateWrite(wait=$wait)" > "$out/late-$wait-$i.json" 2>> "$out/late.err"
    grep -q '"DLP-PY-STREAM-RACE"' "$out/late-$wait-$i.json" && caught=$((caught + 1))
  done
  echo "LateWrite(wait=$wait): caught in $caught of $runs runs"
done

# Consumers: the stream each passes for a CUDA array, and whether it reads there.
for consumer in torch.from_dlpack cupy.from_dlpack jax.dlpack.from_dlpack; do
  python3 -m dlpack_usm consume "$consumer" --device cuda:0 --report "$out/consume-${consumer%%.*}.json" \
    > "$out/consume-${consumer%%.*}.txt" 2>&1
  echo "consume $consumer: exit $?"
  grep -E "stream|FAIL|WARN" "$out/consume-${consumer%%.*}.txt" | head -6
done

python3 -m pytest -q -rs -p no:cacheprovider python/tests/test_stream_race.py \
  python/tests/test_cuda_consumer_streams.py > "$out/pytest.log" 2>&1
echo "pytest test_stream_race.py test_cuda_consumer_streams.py: exit $?"; tail -15 "$out/pytest.log"
echo "total: $(( $(date +%s) - start )) s"
echo "look for: producer_skips_wait failing DLP-PRODUCER-STREAM (stale data in N of 16"
echo "attempts), producer_async passing (no race observed in 16 attempts);"
echo "LateWrite(wait=False) caught in at least 95 % of runs, LateWrite(wait=True) in none;"
echo "a result (finding or note) for stream=0x..., None, 1, 2, -1 and dl_device of each library;"
echo "a 'cuda:0 device stream passed ...' line per consumer; pytest passing."
