#!/usr/bin/env python3
"""Captures tensors of the Python producers present on this machine (torch on
CPU and CUDA, cupy, jax, numpy) over a matrix of dtypes and layouts into
fixtures/captured/, one capsule file per producer, device, dtype and layout
(e.g. torch-2.9.1-cuda-float32-F.json), which CI checks offline with
`dlpack-usm capsule check`. Besides device memory, CUDA producers are
captured on their other memory kinds for a few dtypes: torch's pinned host
memory ("cuda-pinned"), cupy's managed memory ("cuda-managed"), jax's
pinned_host memory kind ("gpu-pinned_host"). CUDA tensors carry what the
CUDA driver said about their pointer (the "runtime" section). A producer that is absent is skipped with the
reason. Prints every finding (tensor rules and Python protocol rules) and
writes them to fixtures/captured/SUMMARY.txt.

Needs only the standard library and the bridge, built first:
    cmake -S . -B build && cmake --build build -j16
    python3 scripts/capture_peers.py [--build build] [--out fixtures/captured]
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64"]
LAYOUTS = ["C", "F", "strided", "negative", "offset", "size0", "ndim0"]
# The memory kinds besides device memory are captured for these dtypes only.
MEMORY_KIND_DTYPES = ["int8", "float32"]


def strided_views(base, flip):
    """The layouts of a 4x6 array through basic slicing; `flip` makes the
    negative-stride view or returns None where the producer has none."""
    return {
        "C": base,
        "F": base.T.copy().T if hasattr(base.T, "copy") else None,
        "strided": base[:, ::2],
        "negative": flip(base),
        "offset": base[1:, 2:],
        "size0": base[:0],
        "ndim0": base[1, 2, ...],  # a 0-d array, not a scalar
    }


def numpy_producer():
    import numpy
    def make(dtype, device):
        if dtype == "bfloat16":
            return None
        base = (numpy.arange(24) % 3).astype(dtype).reshape(4, 6)
        views = strided_views(base, lambda a: a[::-1, ::-1])
        views["F"] = numpy.asfortranarray(base)
        return views
    return "numpy", numpy.__version__, ["cpu"], make


def torch_producer():
    import torch
    devices = ["cpu"] + (["cuda", "cuda-pinned"] if torch.cuda.is_available() else [])
    def make(dtype, device):
        if device == "cuda-pinned" and dtype not in MEMORY_KIND_DTYPES:
            return None
        kind = getattr(torch, dtype)
        if device == "cuda-pinned":
            base = (torch.arange(24) % 3).to(kind).reshape(4, 6).pin_memory()
        else:
            base = (torch.arange(24, device=device) % 3).to(kind).reshape(4, 6)
        views = strided_views(base, lambda a: None)  # torch has no negative strides
        views["F"] = base.t().contiguous().t()
        return views
    return "torch", torch.__version__.split("+")[0], devices, make


def cupy_producer():
    import cupy
    def make(dtype, device):
        if dtype == "bfloat16" or (device != "cuda" and dtype not in MEMORY_KIND_DTYPES):
            return None
        if device == "cuda-managed":
            # Every array below, views and copies included, in managed memory.
            with cupy.cuda.using_allocator(cupy.cuda.malloc_managed):
                base = (cupy.arange(24) % 3).astype(dtype).reshape(4, 6)
                views = strided_views(base, lambda a: a[::-1, ::-1])
                views["F"] = cupy.asfortranarray(base)
            return views
        base = (cupy.arange(24) % 3).astype(dtype).reshape(4, 6)
        views = strided_views(base, lambda a: a[::-1, ::-1])
        views["F"] = cupy.asfortranarray(base)
        return views
    return "cupy", cupy.__version__, ["cuda", "cuda-managed"], make


def jax_producer():
    import jax
    import jax.numpy as jnp
    platforms = sorted({device.platform for device in jax.devices()})
    def make(dtype, device):
        if device == "gpu-pinned_host":
            if dtype not in MEMORY_KIND_DTYPES:
                return None
            target = jax.sharding.SingleDeviceSharding(jax.devices("gpu")[0],
                                                       memory_kind="pinned_host")
        else:
            target = jax.devices(device)[0]
        base = jax.device_put((jnp.arange(24) % 3).astype(getattr(jnp, dtype)).reshape(4, 6),
                              target)
        # jax arrays are always compact row-major: a view is a new array.
        return {"C": base, "size0": base[:0], "ndim0": base[1, 2, ...], "offset": base[1:, 2:]}
    devices = [p for p in platforms if p in ("cpu", "gpu")]
    return "jax", jax.__version__, devices + (["gpu-pinned_host"] if "gpu" in devices else []), make


PRODUCERS = [numpy_producer, torch_producer, cupy_producer, jax_producer]


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--build", default=os.path.join(ROOT, "build"),
                         help="the CMake build folder (default: build)")
    options.add_argument("--out", default=os.path.join(ROOT, "fixtures", "captured"),
                         help="where the capsule files go (default: fixtures/captured)")
    arguments = options.parse_args()
    sys.path.insert(0, os.path.join(arguments.build, "python"))
    import dlpack_usm

    os.makedirs(arguments.out, exist_ok=True)
    summary = [f"dlpack-usm {dlpack_usm.tool_version()}: findings on captured tensors"]
    written = 0
    for producer in PRODUCERS:
        try:
            name, version, devices, make = producer()
        except Exception as error:  # absent or broken: say which and go on
            line = f"{producer.__name__[:-9]}: skipped ({type(error).__name__}: {error})"
            print(line)
            summary.append(line)
            continue
        for device in devices:
            for dtype in DTYPES:
                try:
                    views = make(dtype, device)
                except Exception as error:
                    line = f"{name} {version} {device} {dtype}: skipped ({type(error).__name__}: {error})"
                    print(line)
                    summary.append(line)
                    continue
                if views is None:
                    continue
                for layout in LAYOUTS:
                    view = views.get(layout)
                    if view is None:
                        continue
                    stem = f"{name}-{version}-{device}-{dtype}-{layout}"
                    path = os.path.join(arguments.out, stem + ".json")
                    try:
                        dlpack_usm.capture(view, path, origin=stem)
                        _, findings = dlpack_usm.check_report(view, origin=stem)
                    except Exception as error:
                        line = f"{stem}: not captured ({type(error).__name__}: {error})"
                        print(line)
                        summary.append(line)
                        continue
                    written += 1
                    notable = [item for item in findings if item.severity != "info"]
                    if notable:
                        for item in notable:
                            line = f"{stem}: {item.severity} {item.rule_id} {item.field}: {item.message}"
                            print(line)
                            summary.append(line)
    summary.append(f"{written} capsule files written")
    with open(os.path.join(arguments.out, "SUMMARY.txt"), "w") as out:
        out.write("\n".join(summary) + "\n")
    print(f"{written} capsule files written to {arguments.out}; findings in SUMMARY.txt")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
