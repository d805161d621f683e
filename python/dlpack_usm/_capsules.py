"""PyCapsule access through ctypes.pythonapi. The package only ever reads
capsules: it never renames or consumes one it did not create, so the
producer's destructor frees the tensor when the capsule is dropped."""

import ctypes

_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetDestructor.restype = ctypes.c_void_p
_api.PyCapsule_GetDestructor.argtypes = [ctypes.py_object]

LEGACY = "dltensor"
VERSIONED = "dltensor_versioned"
TENSOR_NAMES = (LEGACY, VERSIONED)
USED_NAMES = {LEGACY: "used_dltensor", VERSIONED: "used_dltensor_versioned"}


def is_capsule(value):
    return type(value).__name__ == "PyCapsule" and type(value).__module__ == "builtins"


def capsule_name(capsule):
    """The capsule's name as text, or None for an unnamed capsule."""
    name = _api.PyCapsule_GetName(capsule)
    return None if name is None else name.decode("utf-8", "replace")


def capsule_pointer(capsule, name):
    """The pointer a capsule carries under `name` (PyCapsule_GetPointer
    checks the name and raises ValueError when it differs)."""
    if not _api.PyCapsule_IsValid(capsule, name.encode()):
        raise ValueError(f"capsule is not a valid capsule named {name!r}")
    return _api.PyCapsule_GetPointer(capsule, name.encode())


def has_destructor(capsule):
    """Whether the capsule calls a destructor when it is freed."""
    return bool(_api.PyCapsule_GetDestructor(capsule))


def describe(value):
    if is_capsule(value):
        return f"a PyCapsule named {capsule_name(value)!r}"
    return f"a {type(value).__module__}.{type(value).__qualname__}"
