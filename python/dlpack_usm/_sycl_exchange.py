"""The tool's own kDLOneAPI exchange on SYCL, in this process: tensors the
tool exports for a SYCL library here (dpnp.from_dlpack) and tensors such a
library exports imported by the tool. Both sides use the one SYCL runtime
dpctl loaded, and its default platform contexts, as the protocol asks."""

import ctypes
import json

from . import _capsules
from ._library import library, read_answer

_VERSIONED = b"dltensor_versioned"
_USED = b"used_dltensor_versioned"
kDLOneAPI = 14

_pythonapi = ctypes.pythonapi
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                 _Destructor)(("PyCapsule_New", _pythonapi))
_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _pythonapi))
_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _pythonapi))
_set_name = ctypes.pythonapi.PyCapsule_SetName
_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]
_set_name.restype = ctypes.c_int


class _DLManagedTensorVersioned(ctypes.Structure):
    # Only the fields up to the deleter are read: version, manager_ctx, deleter.
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


@_Destructor
def _release_unconsumed(capsule):
    # A capsule nobody consumed still owns its tensor: the protocol says the
    # capsule's destructor calls the deleter then (a consumer renames it).
    if not _is_valid(capsule, _VERSIONED):
        return
    pointer = _get_pointer(capsule, _VERSIONED)
    managed = _DLManagedTensorVersioned.from_address(pointer)
    if managed.deleter:
        ctypes.CFUNCTYPE(None, ctypes.c_void_p)(managed.deleter)(pointer)


class ToolTensor:
    """A 1-D USM tensor the tool allocated and exported on SYCL; offers
    __dlpack__ once, as the array API standard has producers do."""

    def __init__(self, data, usm_kind, device_id=0):
        raw = bytes(memoryview(data).cast("B"))
        pointer = ctypes.c_void_p()
        result = ctypes.c_void_p()
        code = library().dlpack_usm_bridge_sycl_export(
            usm_kind.encode(), device_id, str(data.dtype).encode(), raw, len(raw),
            ctypes.byref(pointer), ctypes.byref(result))
        self.info = read_answer(code, result)
        self._capsule = _new_capsule(pointer.value, _VERSIONED, _release_unconsumed)

    def __dlpack_device__(self):
        return (kDLOneAPI, self.info["device_id"])

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._capsule is None:
            raise BufferError("this tensor was exported once already")
        capsule, self._capsule = self._capsule, None
        return capsule


def import_into_tool(obj):
    """Has the tool import `obj.__dlpack__()` on SYCL; returns its answer
    (device_id, usm_kind, owner, bytes as hex, findings). The tool takes the
    capsule over (renames it, as a consumer does) and calls its deleter."""
    capsule = obj.__dlpack__(max_version=(1, 3))
    name = _capsules.capsule_name(capsule)
    pointer = _capsules.capsule_pointer(capsule, name)
    _set_name(capsule, b"used_" + name.encode())
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_sycl_import(pointer, name.encode(), ctypes.byref(result))
    answer = read_answer(code, result)
    answer["bytes"] = bytes.fromhex(answer["bytes"])
    return answer
