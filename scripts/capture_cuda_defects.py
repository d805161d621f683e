#!/usr/bin/env python3
"""Captures the broken CUDA producers of python/tests/cuda_producers.py (a
float32 vector over memory cupy allocates exactly, exported with a wrong
device_id, a wrong device type for pinned or managed memory, or an extent
past its allocation) into fixtures/captured/defects/, with what the CUDA
driver said about each pointer, and prints what each one fires. Run it on a
machine with an NVIDIA driver, cupy and a CUDA device:
    python3 scripts/capture_cuda_defects.py [--build build] [--out fixtures/captured/defects]
The files are checked offline by ctest (captured_defects_fire_their_rules)
against the rules listed here, which manifest.json repeats."""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 2, 3, 13

# (file stem, rule it must fire, how the producer is made); device_id 1 is
# out of range on a machine with one GPU, the one the captures come from.
DEFECTS = [
    ("device-id-beyond-devices", "DLP-CUDA-DEVICE-ID-RANGE",
     dict(memory="device", device_id=1)),
    ("pinned-labelled-cuda", "DLP-CUDA-DEVICE-MEMORY-TYPE",
     dict(memory="host", device_type=KDL_CUDA)),
    ("managed-labelled-cuda", "DLP-CUDA-DEVICE-MEMORY-TYPE",
     dict(memory="managed", device_type=KDL_CUDA)),
    ("device-labelled-cuda-host", "DLP-CUDA-HOST-MEMORY-TYPE",
     dict(memory="device", device_type=KDL_CUDA_HOST)),
    ("device-labelled-cuda-managed", "DLP-CUDA-MANAGED-MEMORY-TYPE",
     dict(memory="device", device_type=KDL_CUDA_MANAGED)),
    ("extent-past-allocation", "DLP-EXTENT-OUTSIDE-ALLOCATION",
     dict(memory="device", claimed=1 << 24)),
]


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--build", default=os.path.join(ROOT, "build"))
    options.add_argument("--out", default=os.path.join(ROOT, "fixtures", "captured", "defects"))
    arguments = options.parse_args()
    sys.path.insert(0, os.path.join(arguments.build, "python"))
    sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
    import cupy
    import dlpack_usm
    from cuda_producers import DriverTensor

    defects = list(DEFECTS)
    if cupy.cuda.runtime.getDeviceCount() >= 2:
        # Memory of the second GPU exported with a device_id hard-coded to 0.
        defects.append(("device-id-hard-coded-0", "DLP-CUDA-DEVICE-ID",
                        dict(memory="device", ordinal=1, device_id=0)))
    failures = 0
    for stem, rule, how in defects:
        name = f"cuda-driver-producer-{stem}"
        path = os.path.join(arguments.out, name + ".json")
        producer = DriverTensor(**how)
        dlpack_usm.capture(producer, path, origin=f"{name} (cupy {cupy.__version__} memory)")
        found = dlpack_usm.check(producer, consumer=None)
        fired = sorted({item.rule_id for item in found if item.severity != "info"
                        and not item.rule_id.startswith("DLP-PY-")})
        ok = fired == [rule]
        failures += not ok
        print(f"{name}: expected {rule}; fired {', '.join(fired) or 'nothing'}"
              f"{'' if ok else '  <-- MISMATCH'}")
        for item in found:
            if item.rule_id == rule:
                print(f"    {item.severity} {item.rule_id} {item.field}: {item.message}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
