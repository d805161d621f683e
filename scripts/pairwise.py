#!/usr/bin/env python3
"""The pairwise matrix of real libraries: every installed library's tensors
handed to every installed library's consumer, as one `dlpack-usm check`
run (one --python-handoff PRODUCER CONSUMER per pair: a worker per pair, so
two heavy frameworks never share an interpreter with a third), written as
a check report that `dlpack-usm report matrix` renders as the grid at the
top of the compatibility page.

    scripts/pairwise.py [--python INTERP] [--label ci] [--output FILE]
                        [--dlpack-usm BINARY] [--only LIB]...

INTERP is the interpreter the peers are installed in (default: the one
`scripts/setup.sh --peers` makes, /opt/dlpack-usm/peers/bin/python). A
library that does not import there is left out and said so. The committed
reports are fixtures/pairs/pairs-LABEL.json; `cmake --build build --target
compatibility_docs` then regenerates the page from them, and the test
compatibility_docs_up_to_date fails while the page is older than they are.
Exit status: 0 when the run finished (its gate may have failed: a defect
found is a result), 2 for a usage error, 3 when fewer than two libraries
import."""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)

# name: (the module that must import, producer, consumer). A producer that
# is a MODULE has a tensor made per cell; an EXPR gives one tensor. None:
# the library has no such side.
PEERS = {
    "numpy": ("numpy", "numpy", "numpy.from_dlpack"),
    "array_api_strict": ("array_api_strict", "array_api_strict",
                         "array_api_strict.from_dlpack"),
    "dpnp": ("dpnp", "dpnp", "dpnp.from_dlpack"),
    "jax": ("jax", "jax.numpy", "jax.numpy.from_dlpack"),
    # ndonnx makes no array with a device= (ONNX controls the device), so the
    # cells of a MODULE producer would all be missing: one array of its own.
    "ndonnx": ("ndonnx", "ndonnx.asarray(numpy.arange(15, dtype=numpy.float32).reshape(3, 5))",
               "ndonnx.from_dlpack"),
    "tensorflow": ("tensorflow",
                   "tensorflow.reshape(tensorflow.range(15, dtype=tensorflow.float32), (3, 5))",
                   "tensorflow.experimental.dlpack.from_dlpack"),
    "paddle": ("paddle", "paddle.arange(15, dtype='float32').reshape([3, 5])",
               "paddle.from_dlpack"),
    "warp": ("warp", "warp.array(numpy.arange(15, dtype=numpy.float32).reshape(3, 5))",
             "warp.from_dlpack"),
    "mlx": ("mlx.core", "mlx.core.arange(15.0).reshape(3, 5)", None),
    # scikit-learn-intelex: oneDAL's tables speak DLPack both ways (its host
    # build here; kDLOneAPI with a SYCL device and dpctl).
    "onedal": ("onedal.datatypes", "onedal.datatypes.to_table(numpy.arange(15.0).reshape(3, 5))",
               "onedal.datatypes.to_table"),
    # On a CUDA machine, torch's tensor on its first GPU (else on its CPU),
    # and cupy's arrays, which live on the current CUDA device.
    "torch": ("torch", "torch.arange(15.0, device='cuda' if torch.cuda.is_available() else "
                       "'cpu').reshape(3, 5)", "torch.from_dlpack"),
    "cupy": ("cupy", "cupy", "cupy.from_dlpack"),
    "tvm_ffi": ("tvm_ffi", "tvm_ffi.from_dlpack(numpy.arange(15, dtype=numpy.float32)"
                           ".reshape(3, 5))", "tvm_ffi.from_dlpack"),
}
# The cells a MODULE producer's tensors are made for: the layouts, the
# dtypes two libraries most often disagree on, size 0 and read-only.
CELLS = ("c-order", "f-order", "strided", "negative-stride", "byte-offset", "broadcast",
         "dtype-bool", "dtype-int8", "dtype-float16", "dtype-bfloat16", "dtype-complex64",
         "size0-1d", "read-only")


def importable(python, module):
    """Whether `module` imports in `python` (within two minutes)."""
    try:
        done = subprocess.run([python, "-c", f"import {module}"], capture_output=True,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def handoffs(libraries):
    """--python-handoff P C for every producer and consumer, a library with
    itself included."""
    words = []
    for producer in libraries:
        for consumer in libraries:
            if PEERS[producer][1] and PEERS[consumer][2]:
                words += ["--python-handoff", PEERS[producer][1], PEERS[consumer][2]]
    return words


def relative_paths(value, prefixes):
    """`value` with every path under one of `prefixes` made relative to it:
    a committed report names no folder of the machine that ran it."""
    if isinstance(value, str):
        for prefix in prefixes:
            value = value.replace(prefix, "")
        return value
    if isinstance(value, list):
        return [relative_paths(item, prefixes) for item in value]
    if isinstance(value, dict):
        return {key: relative_paths(item, prefixes) for key, item in value.items()}
    return value


def write_relative(output):
    """Rewrites the report at `output` with this checkout's and the report's
    own folder left out of its paths (snippets, the suite, the command
    line), atomically."""
    prefixes = [SOURCE + os.sep, os.path.dirname(os.path.abspath(output)) + os.sep]
    with open(output, encoding="utf-8") as report:
        document = relative_paths(json.load(report), prefixes)
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as report:
        json.dump(document, report, indent=2)
        report.write("\n")
    os.replace(temporary, output)


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="/opt/dlpack-usm/peers/bin/python")
    parser.add_argument("--label", default="ci")
    parser.add_argument("--output")
    parser.add_argument("--dlpack-usm", default=os.path.join(SOURCE, "build", "dlpack-usm"))
    parser.add_argument("--only", action="append", choices=sorted(PEERS))
    return parser.parse_args(argv)


def main(argv):
    args = parse(argv)
    output = args.output or os.path.join(SOURCE, "fixtures", "pairs", f"pairs-{args.label}.json")
    libraries = []
    for name in args.only or sorted(PEERS):
        if importable(args.python, PEERS[name][0]):
            libraries.append(name)
        else:
            print(f"pairwise: {name} does not import in {args.python}: left out",
                  file=sys.stderr)
    if len(libraries) < 2:
        print("pairwise: fewer than two libraries import; install them with "
              "scripts/setup.sh --peers", file=sys.stderr)
        return 3
    print(f"pairwise: {len(libraries)} libraries: {', '.join(libraries)}", file=sys.stderr)
    cells = [word for cell in CELLS + ("given",) for word in ("--cell", cell)]
    command = [args.dlpack_usm, "check", *handoffs(libraries), *cells, "--python", args.python,
               "--label", args.label, "--report", output, "--stream", os.devnull, "-q"]
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    status = subprocess.run(command).returncode
    if status in (0, 1):
        write_relative(output)
    return 0 if status in (0, 1) else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
