"""The tool's own kDLOneAPI exchange on SYCL, in this process: tensors the
tool exports for a SYCL library here (dpnp.from_dlpack) and tensors such a
library exports imported by the tool. Both sides use the one SYCL runtime
dpctl loaded, and its default platform contexts, as the protocol asks."""

import ctypes

from .._bridge import capsules, dlpack
from .._bridge.library import library, read_answer

_set_name = ctypes.pythonapi.PyCapsule_SetName
_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]
_set_name.restype = ctypes.c_int


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
        self._capsule = capsules.new_owning_capsule(pointer.value, capsules.VERSIONED)

    def __dlpack_device__(self):
        return (dlpack.device_type("kDLOneAPI"), self.info["device_id"])

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._capsule is None:
            raise BufferError("this tensor was exported once already")
        capsule, self._capsule = self._capsule, None
        return capsule


def import_into_tool(obj):
    """Has the tool import `obj.__dlpack__()` on SYCL; returns its answer
    (device_id, usm_kind, owner, bytes as hex, findings). The tool takes the
    capsule over (renames it, as a consumer does) and calls its deleter."""
    capsule = obj.__dlpack__(max_version=dlpack.NEWEST)
    name = capsules.capsule_name(capsule)
    pointer = capsules.capsule_pointer(capsule, name)
    _set_name(capsule, b"used_" + name.encode())
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_sycl_import(pointer, name.encode(), ctypes.byref(result))
    answer = read_answer(code, result)
    answer["bytes"] = bytes.fromhex(answer["bytes"])
    return answer
