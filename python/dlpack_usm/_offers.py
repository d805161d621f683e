"""The consumer matrix of `dlpack-usm check --consumer`, from the bridge: the
cells, the root devices with USM, and offers of one cell as a real PyCapsule
whose tensor counts its deleter's calls (bridge ABI 5)."""

import ctypes
import json

from ._library import library, read_answer

_pythonapi = ctypes.pythonapi
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                 _Destructor)(("PyCapsule_New", _pythonapi))
_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _pythonapi))
_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _pythonapi))

# Both structs start their deleter at a known offset: DLManagedTensor
# {DLTensor (48 bytes), manager_ctx, deleter}; DLManagedTensorVersioned
# {version (8), manager_ctx, deleter, ...}.
_DELETER_OFFSET = {b"dltensor": 56, b"dltensor_versioned": 16}
_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# PyCapsule_New keeps the name's pointer, not a copy: the names live here.
_NAMES = {"dltensor": b"dltensor", "dltensor_versioned": b"dltensor_versioned"}


@_Destructor
def _release_unconsumed(capsule):
    # The protocol: a capsule still named dltensor(_versioned) when it dies
    # was never consumed, and its destructor calls the tensor's deleter. A
    # consumer renames it to used_* when it takes the tensor over.
    for name, offset in _DELETER_OFFSET.items():
        if _is_valid(capsule, name):
            pointer = _get_pointer(capsule, name)
            deleter = ctypes.c_void_p.from_address(pointer + offset).value
            if deleter:
                _Deleter(deleter)(pointer)
            return


def matrix():
    """{"runtime", "devices", "cells"} (bridge.h, dlpack_usm_bridge_consumer_matrix)."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_matrix(ctypes.byref(result))
    return read_answer(code, result)


def offer(cell, memory, device_id=0, version=(1, 3), copied=False):
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
    return _new_capsule(pointer.value, _NAMES[info["capsule_name"]], _release_unconsumed), info


def state(handle):
    """{"deleter_calls", "written_bytes", "stray_deleter_calls"} of an offer."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_offer_state(handle, ctypes.byref(result))
    return read_answer(code, result)


def release(handle):
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_offer_release(handle, ctypes.byref(result))
    return read_answer(code, result)
