"""PyCapsule access through ctypes.pythonapi. The package reads other
people's capsules and never renames or consumes one it did not create, so
the producer's destructor frees the tensor when the capsule is dropped. Its
own tensors (the bridge's exports and the consumer matrix's offers) go out
in capsules made here, whose destructor keeps the same protocol."""

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

# The raw forms, for a destructor: it gets the capsule as a PyObject*, not
# as a Python object.
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                 _Destructor)(("PyCapsule_New", _api))
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))

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


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# PyCapsule_New keeps the name's pointer, not a copy: the names live here.
_NAMES = {LEGACY: b"dltensor", VERSIONED: b"dltensor_versioned"}


@_Destructor
def _release_unconsumed(capsule):
    # The protocol: a capsule still named dltensor(_versioned) when it dies
    # was never consumed, and its destructor calls the tensor's deleter. A
    # consumer renames it to used_* when it takes the tensor over.
    # Where each struct keeps its deleter, as the core's ABI model says.
    from .dlpack import deleter_offsets
    for name, offset in deleter_offsets().items():
        if _raw_is_valid(capsule, _NAMES[name]):
            pointer = _raw_get_pointer(capsule, _NAMES[name])
            deleter = ctypes.c_void_p.from_address(pointer + offset).value
            if deleter:
                _Deleter(deleter)(pointer)
            return


def new_owning_capsule(tensor, name):
    """A capsule named `name` (LEGACY or VERSIONED) over the managed tensor
    at address `tensor`, calling its deleter when it dies unconsumed."""
    return _new_capsule(tensor, _NAMES[name], _release_unconsumed)
