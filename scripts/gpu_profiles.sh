#!/usr/bin/env bash
# What the GPU machine (NVIDIA driver, PoCL 5.0 with USM, torch, cupy, jax,
# numpy; no dpctl) contributes to the repository, in one run: the profiles of
# both directions of torch, cupy, jax.numpy and numpy (fixtures/profiles/,
# `python3 -m dlpack_usm profile --label gpu`, in OUT/profiles), the consumer
# profiles of torch, cupy and jax (fixtures/consumer_profiles/), numpy's as a
# comparison with the CI machine's, torch's with two PoCL root devices, the
# `check` of PoCL's two roots (its owner answer named once, nothing else
# blocked charged to the tool), the pairwise grid of torch, cupy, jax and
# numpy (fixtures/pairs/pairs-gpu.json), the CUDA and owner-answer tests,
# and the consume bench (bench/consume_bench.py). Everything goes to OUT.
# Usage: scripts/gpu_profiles.sh [OUT] [JOBS]
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-gpu-run}") jobs=${2:-16} build=build-gpu
mkdir -p "$out"
exec > >(tee "$out/run.log") 2>&1
start=$(date +%s)
cmake -S . -B $build -DDLPACK_USM_BENCH=OFF > "$out/build.log" 2>&1 &&
  cmake --build $build -j"$jobs" >> "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
export PYTHONPATH=$PWD/$build/python:$PWD/python/tests
python3 -c 'import sys, torch, cupy, jax, numpy
print("python", sys.version.split()[0], "torch", torch.__version__, "cupy", cupy.__version__,
      "jax", jax.__version__, "numpy", numpy.__version__)'

# Profiles: `|| true`, a profile is written whether or not a case fails.
for consumer in torch.from_dlpack cupy.from_dlpack jax.dlpack.from_dlpack numpy.from_dlpack; do
  name=${consumer%%.*}
  [ "$name" = numpy ] && name=numpy-gpu
  begin=$(date +%s%N)
  python3 -m dlpack_usm consume "$consumer" --report "$out/$name.json" 2>/dev/null |
    grep -E '^(FAIL|[0-9]+ cases|gate)' || true
  echo "$consumer: $(( ($(date +%s%N) - begin) / 1000000 )) ms"
done
# Both directions (profile). torch's devices are named with --library-device:
# a namespace without __array_namespace_info__ is profiled on its default
# device only. cupy and jax.numpy list theirs, or use their default device.
mkdir -p "$out/profiles"
for module in torch cupy jax.numpy numpy; do
  name=${module%%.*} devices=()
  [ "$name" = numpy ] && name=numpy-gpu
  [ "$module" = torch ] && devices=(--library-device cpu --library-device cuda:0)
  begin=$(date +%s%N)
  python3 -m dlpack_usm profile "$module" ${devices[@]+"${devices[@]}"} --label gpu \
    --report "$out/profiles/$name.json" 2>/dev/null |
    grep -E '^(producer:|consumer:|  not profiled|gate)' || true
  echo "profile $module: $(( ($(date +%s%N) - begin) / 1000000 )) ms"
done
POCL_DEVICES="cpu cpu" python3 -m dlpack_usm consume torch.from_dlpack \
  --report "$out/torch-two-pocl-roots.json" 2>/dev/null | grep -E '^([0-9]+ cases|gate)' || true

# PoCL's two root devices: the owner answer, named once.
POCL_DEVICES="cpu cpu" $build/dlpack-usm list-devices --runtime opencl 2>&1 | grep -A3 -i "owner" | head -12
POCL_DEVICES="cpu cpu" $build/dlpack-usm check --runtime opencl 2>&1 | grep -vE '^\s+repro:' | tail -14

# The pairwise grid of the CUDA libraries (fixtures/pairs/pairs-gpu.json).
begin=$(date +%s)
python3 scripts/pairwise.py --python python3 --label gpu --dlpack-usm $build/dlpack-usm \
  --only torch --only cupy --only jax --only numpy --output "$out/pairs-gpu.json"
echo "pairwise: $(( $(date +%s) - begin )) s"

ctest --test-dir $build -j"$jobs" -R 'Cuda|OwnerAnswer|owner_answer|ConsumerVerdict' \
  --output-on-failure 2>&1 | tail -6
python3 bench/consume_bench.py --runs 2 torch cupy jax.numpy numpy > "$out/bench.json" 2>&1
python3 -c "import json; [print(r['library'], r['cases'], 'cases', r['median_s'], 's, target', r['target_s'], 's, before', r['before_s']) for r in json.load(open('$out/bench.json'))['results']]"
echo "total: $(( $(date +%s) - start )) s"
