#!/usr/bin/env bash
# The CUDA acceptance run on a machine with an NVIDIA driver, GPUs and the
# Python producers (torch, cupy, jax): builds the tool, lists the CUDA
# devices, checks live torch, cupy and jax tensors on device, pinned host and
# managed memory (views with offsets included), runs the CUDA tests, captures
# tensors with their CUDA facts and the broken producers of
# python/tests/cuda_producers.py, and repeats the device_id checks under
# CUDA_VISIBLE_DEVICES subsets where there are two GPUs. Everything it sees
# goes to OUT (default ./cuda-run): logs, JSON answers, the captures.
# Usage: scripts/check_cuda_machine.sh [OUT] [JOBS]
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-cuda-run}") jobs=${2:-16} build=build-cuda
mkdir -p "$out"
exec > >(tee "$out/run.log") 2>&1
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  python3 -c 'import sys, torch, cupy, jax, numpy
print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda,
      "cupy", cupy.__version__, "jax", jax.__version__, "numpy", numpy.__version__)
print("jax devices", jax.devices())'; } > "$out/versions.txt" 2>&1
cat "$out/versions.txt"
start=$(date +%s)
cmake -S . -B $build -DDLPACK_USM_BENCH=OFF > "$out/cmake.log" 2>&1 &&
  cmake --build $build -j"$jobs" --target dlpack-usm dlpack_usm_python > "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
# The tests' build failing leaves the live checks below worth running.
cmake --build $build -j"$jobs" >> "$out/build.log" 2>&1 || tail -20 "$out/build.log"
echo "build: $(( $(date +%s) - start )) s"
tool=$build/dlpack-usm
export PYTHONPATH=$PWD/$build/python:$PWD/python/tests
gpus=$(nvidia-smi -L | wc -l)

$tool list-devices --runtime opencl > "$out/list-devices.txt" 2>&1; echo "list-devices exit $?"
$tool list-devices --json --runtime opencl > "$out/list-devices.json" 2>/dev/null
sed -n '/^CUDA/,$p' "$out/list-devices.txt"
if [ "$gpus" -ge 2 ]; then
  CUDA_VISIBLE_DEVICES=1 $tool list-devices --runtime opencl 2>/dev/null | sed -n '/^CUDA/,$p' |
    tee "$out/list-devices-visible-1.txt"
fi

ctest --test-dir $build -j"$jobs" -R 'Cuda|ConformanceVectors|RuleCatalog|captured|rule_quotes' \
  --output-on-failure > "$out/ctest.log" 2>&1; echo "ctest exit $?"; tail -5 "$out/ctest.log"

# Live checks through the command line a user runs; --json answers kept.
checks=(
  "torch.arange(4096., device='cuda').reshape(64, 64)"
  "torch.arange(4096., device='cuda').reshape(64, 64)[5:, 7:]"
  "torch.arange(4096., device='cuda').reshape(64, 64)[:, ::2]"
  "torch.arange(4096., device='cuda').reshape(64, 64).t()"
  "torch.arange(4096.).pin_memory()"
  "cupy.arange(4096, dtype=cupy.float32).reshape(64, 64)[5:, 7:]"
  "cupy.arange(4096, dtype=cupy.float32)[::-1]"
  "cupy.ndarray((64, 64), cupy.float32, cupy.cuda.malloc_managed(16384))"
  "cupyx.empty_pinned((64, 64), cupy.float32)"
  "jax.numpy.arange(4096.).reshape(64, 64)"
  "jax.numpy.arange(4096.).reshape(64, 64)[5:, 7:]"
  "jax.device_put(jax.numpy.arange(4096.), jax.sharding.SingleDeviceSharding(jax.devices()[0], memory_kind='pinned_host'))"
)
if [ "$gpus" -ge 2 ]; then
  checks+=("torch.cuda.set_device(1) or torch.arange(4096., device='cuda:1').reshape(64, 64)[5:, 7:]"
           "cupy.cuda.Device(1).__enter__() and cupy.arange(4096, dtype=cupy.float32)")
fi
i=0
for expr in "${checks[@]}"; do
  i=$((i + 1))
  python3 -m dlpack_usm check --json "$expr" > "$out/check-$i.json" 2> "$out/check-$i.err"
  status=$?
  echo "check $i exit $status: $expr"
  [ "$status" -ge 2 ] && tail -20 "$out/check-$i.err"
  python3 - "$out/check-$i.json" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as error:
    print("   no JSON:", error); sys.exit()
tensor = (doc.get("capsule") or {}).get("dl_tensor") or {}
print("   device", tensor.get("device"), "runtime", (doc.get("capsule") or {}).get("runtime"))
for item in doc.get("findings", []):
    print("   ", item["severity"], item["rule_id"], item["message"][:200])
for note in doc.get("notes", []):
    print("    note:", note[:200])
PY
done

if [ "$gpus" -ge 2 ]; then
  for expr in "torch.arange(4096., device='cuda').reshape(64, 64)[5:, 7:]" \
              "cupy.arange(4096, dtype=cupy.float32)"; do
    CUDA_VISIBLE_DEVICES=1 python3 -m dlpack_usm check "$expr"
    echo "CUDA_VISIBLE_DEVICES=1 check exit $?: $expr"
    CUDA_VISIBLE_DEVICES=1 python3 -m dlpack_usm capture -o "$out/visible-1-$(echo "$expr" | cut -c1-5).json" "$expr"
  done
fi

python3 -m pytest --version > /dev/null 2>&1 && {
  python3 -m pytest -q -rs -p no:cacheprovider python/tests/test_cuda_live.py \
    python/tests/test_cuda_streams.py python/tests/test_stream_race.py \
    python/tests/test_cuda_consumer_streams.py > "$out/pytest.log" 2>&1; echo "pytest exit $?"
  grep -E "^(FAILED|ERROR)|Error|assert" "$out/pytest.log" | head -40; tail -3 "$out/pytest.log"
  if [ "$gpus" -ge 2 ]; then
    CUDA_VISIBLE_DEVICES=1 python3 -m pytest -q -rs -p no:cacheprovider \
      python/tests/test_cuda_live.py > "$out/pytest-visible-1.log" 2>&1
    echo "pytest CUDA_VISIBLE_DEVICES=1 exit $?"; tail -5 "$out/pytest-visible-1.log"
  fi
} || echo "pytest: not installed here"

mkdir -p "$out/captured" "$out/defects"
start=$(date +%s)
python3 scripts/capture_peers.py --build $build --out "$out/captured" > "$out/capture.log" 2>&1
echo "capture_peers exit $? in $(( $(date +%s) - start )) s"; tail -3 "$out/capture.log"
grep -v ": error DLP-PY-\|: warning DLP-PY-" "$out/captured/SUMMARY.txt" | head -40
CUDA_VISIBLE_DEVICES=0 python3 scripts/capture_cuda_defects.py --build $build \
  --out "$out/defects"; echo "capture_cuda_defects exit $?"
# One archive: the machine returns a limited number of files.
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
