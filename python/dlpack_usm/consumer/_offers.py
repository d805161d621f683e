"""The consumer matrix of `dlpack-usm check --consumer`, from the bridge: the
cells, the root devices with USM, and offers of one cell as a real PyCapsule
whose tensor counts its deleter's calls (bridge ABI 5)."""

import ctypes
import json

from .._bridge import dlpack
from .._bridge.capsules import new_owning_capsule
from .._bridge.library import library, read_answer


def matrix():
    """{"runtime", "devices", "cells"} (bridge.h, dlpack_usm_bridge_consumer_matrix)."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_matrix(ctypes.byref(result))
    return read_answer(code, result)


def offer(cell, memory, device_id=0, version=dlpack.NEWEST, copied=False):
    """(capsule or None, info): the cell offered in `memory` ("cpu", "host",
    "device", "shared") as a new capsule; None where info["untestable"]
    says why the cell cannot be tested here."""
    request = json.dumps({"cell": cell, "memory": memory, "device_id": device_id,
                          "version": f"{version[0]}.{version[1]}", "copied": copied})
    pointer = ctypes.c_void_p()
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_offer(request.encode(), ctypes.byref(pointer),
                                                      ctypes.byref(result))
    info = read_answer(code, result)
    if not pointer.value:
        return None, info
    return new_owning_capsule(pointer.value, info["capsule_name"]), info


def state(handle):
    """{"deleter_calls", "written_bytes", "stray_deleter_calls"} of an offer."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_offer_state(handle, ctypes.byref(result))
    return read_answer(code, result)


def release(handle):
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_offer_release(handle, ctypes.byref(result))
    return read_answer(code, result)
