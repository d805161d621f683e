"""The wall time of `python3 -m dlpack_usm consume LIB.from_dlpack` (the
one runner's Python workers) over the whole consumer matrix, for each library importable here (numpy, torch,
cupy, jax.numpy, array_api_strict, dpnp by default), next to the target of
issue "One verdict model" (10 s) and what the same run took before that
work (torch 2.11: 38.7 s on the GPU machine, where a full garbage collection
after every case cost about 0.25 s with torch loaded). Prints one JSON
document. Not a test: timings do not make tests.

Usage: PYTHONPATH=build/python python3 bench/consume_bench.py [--runs N] [LIB ...]"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_S = 10.0
BEFORE_S = {"torch": 38.7}
DEFAULT_LIBRARIES = ("numpy", "torch", "cupy", "jax.numpy", "array_api_strict", "dpnp")


def importable(name):
    try:
        return importlib.util.find_spec(name.split(".")[0]) is not None
    except (ImportError, ValueError):
        return False


def one_run(library):
    """(wall seconds, report) of one consume run."""
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "dlpack_usm", "consume",
                               f"{library}.from_dlpack", "--report", report],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - started
        if not os.path.exists(report):
            raise SystemExit(f"consume {library} wrote no report (exit {done.returncode}): "
                             f"{done.stderr.strip()[-400:]}")
        with open(report) as file:
            return wall, json.load(file)


def measure(library, runs):
    walls, report = [], None
    for _ in range(runs):
        wall, report = one_run(library)
        walls.append(wall)
    median = statistics.median(walls)
    # The check report: its cases that ran, and what the library's probe
    # said of it (its packages' versions).
    cases = report["summary"]["total"] - report["summary"]["outcomes"].get("skipped", 0)
    packages = next((plugin.get("packages", {}) for plugin in report.get("plugins", [])
                     if plugin.get("interface") == "python"), {})
    return {"library": library, "packages": packages, "cases": cases,
            "median_s": round(median, 2), "runs_s": [round(wall, 2) for wall in walls],
            "per_case_ms": round(1000 * median / max(cases, 1), 1),
            "target_s": TARGET_S, "within_target": median <= TARGET_S,
            "before_s": BEFORE_S.get(library.split(".")[0])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("libraries", nargs="*", default=DEFAULT_LIBRARIES)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    found = [name for name in arguments.libraries if importable(name)]
    results = [measure(name, arguments.runs) for name in found]
    print(json.dumps({"bench": "consume", "skipped": sorted(set(arguments.libraries) - set(found)),
                      "results": results}, indent=2))


if __name__ == "__main__":
    main()
