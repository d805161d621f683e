"""Pure-Python producers that each break one rule of the Python-level
catalog, built over real numpy arrays (whose capsules they pass on or
whose keywords they mishandle) or over tensors they lay out with ctypes
and wrap in capsules they create themselves."""

import ctypes
import os
import signal
import time

import numpy

from dlpack_usm._bridge import capsules

KDL_CPU = 1
KDL_CUDA = 2

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLPackExchangeAPIHeader(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("prev_api", ctypes.c_void_p)]


class DLPackExchangeAPI(ctypes.Structure):
    """The table as dlpack.h 1.3 lays it out, written here as a producer
    under test writes it: not the tool's model of it (which the package no
    longer keeps: the core reads tables)."""
    _fields_ = [("header", DLPackExchangeAPIHeader),
                ("managed_tensor_allocator", ctypes.c_void_p),
                ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
                ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
                ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
                ("current_work_stream", ctypes.c_void_p)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64),
                ("dl_tensor", DLTensor)]


class Delegate:
    """Passes everything on to a numpy array; subclasses break one thing."""

    def __init__(self, array=None):
        self.array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) if array is None \
            else array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class OwnTensor:
    """A float32 vector of 4 elements laid out with ctypes, exported in a
    capsule this object creates with the name it is given (no destructor:
    the object keeps the memory alive)."""

    def __init__(self, name=b"dltensor_versioned", major=1):
        self.values = (ctypes.c_float * 4)(1, 2, 3, 4)
        self.shape = (ctypes.c_int64 * 1)(4)
        self.strides = (ctypes.c_int64 * 1)(1)
        self.tensor = DLManagedTensorVersioned()
        self.tensor.version.major = major
        self.tensor.version.minor = 3
        self.tensor.dl_tensor.data = ctypes.addressof(self.values)
        self.tensor.dl_tensor.device = DLDevice(KDL_CPU, 0)
        self.tensor.dl_tensor.ndim = 1
        self.tensor.dl_tensor.dtype = DLDataType(2, 32, 1)
        self.tensor.dl_tensor.shape = self.shape
        self.tensor.dl_tensor.strides = self.strides
        self.name = name

    def __dlpack__(self, **kwargs):
        return _api.PyCapsule_New(ctypes.addressof(self.tensor), self.name, None)

    def __dlpack_device__(self):
        return (KDL_CPU, 0)


# PyCapsule_SetName keeps the pointer it is given, not a copy: the names
# must outlive the capsules.
_USED_NAMES = {"dltensor": b"used_dltensor", "dltensor_versioned": b"used_dltensor_versioned"}


def mark_used(capsule, name):
    """Renames a capsule named `name`, which the caller asked for and now
    owns as a consumer, to its "used_" name."""
    _api.PyCapsule_SetName(capsule, _USED_NAMES[name])


# PyCapsule_New keeps the name's pointer: these bytes outlive every capsule.
_TENSOR_NAMES = {"dltensor": b"dltensor", "dltensor_versioned": b"dltensor_versioned"}


class NoDestructor(Delegate):
    """Re-wraps each of numpy's capsules in a capsule of its own created
    without a destructor: numpy's tensor, deleter and all, in a capsule that
    never calls the deleter when it is dropped unconsumed."""

    def __dlpack__(self, **kwargs):
        capsule = self.array.__dlpack__(**kwargs)
        name = capsules.capsule_name(capsule)
        pointer = _api.PyCapsule_GetPointer(capsule, _TENSOR_NAMES[name])
        mark_used(capsule, name)  # numpy's capsule no longer frees the tensor
        return _api.PyCapsule_New(pointer, _TENSOR_NAMES[name], None)


class ReadOnlyLegacy(Delegate):
    """A read-only array whose versioned export says READ_ONLY, but whose
    legacy export (what a DLPack 0.x consumer gets) hands the same memory
    out through a writable view, where no flag can say it is read only."""

    def __init__(self):
        super().__init__()
        self.writable = self.array
        self.array = self.writable.view()
        self.array.flags.writeable = False

    def __dlpack__(self, max_version=None, **kwargs):
        if max_version is None or max_version[0] < 1:
            return self.writable.__dlpack__(**kwargs)
        return self.array.__dlpack__(max_version=max_version, **kwargs)


class VersionedForAnyMaxVersion(Delegate):
    """Takes any max_version as a sign the consumer speaks DLPack 1.x: a
    consumer of 0.8 that says so gets a "dltensor_versioned" capsule."""

    def __dlpack__(self, max_version=None, **kwargs):
        if max_version is None:
            return self.array.__dlpack__(**kwargs)
        return self.array.__dlpack__(max_version=(1, 0), **kwargs)


class MaxVersionWrongWayRound(Delegate):
    """Compares max_version the wrong way round: versioned below 1.0,
    legacy from 1.0 on."""

    def __dlpack__(self, max_version=None, **kwargs):
        if max_version is not None and max_version < (1, 0):
            return self.array.__dlpack__(max_version=(1, 0), **kwargs)
        return self.array.__dlpack__(**kwargs)


# An address no process can read: not canonical on x86-64 (the kernel
# answers EFAULT; a load from it is SIGSEGV).
WILD = 0xDEAD000000000000


class WildCapsule(Delegate):
    """Hands out a "dltensor_versioned" capsule whose tensor pointer is wild."""

    def __dlpack__(self, **kwargs):
        return _api.PyCapsule_New(WILD, b"dltensor_versioned", None)


class WildShape(OwnTensor):
    """OwnTensor whose shape pointer is wild."""

    def __init__(self):
        super().__init__()
        self.tensor.dl_tensor.shape = ctypes.cast(WILD, ctypes.POINTER(ctypes.c_int64))


# PyCapsule_New keeps the name's pointer: the bytes must outlive the capsule.
_EXCHANGE_API_NAME = b"dlpack_exchange_api"


class WildExchangeApi(Delegate):
    """A type whose __dlpack_c_exchange_api__ capsule points to wild memory."""

    __dlpack_c_exchange_api__ = _api.PyCapsule_New(WILD, _EXCHANGE_API_NAME, None)


class Raising(Delegate):
    """__dlpack__ raises what it is given (an exception type), whatever it is asked."""

    def __init__(self, exception):
        super().__init__()
        self.exception = exception

    def __dlpack__(self, **kwargs):
        raise self.exception("no tensor today")


class RaisingArray(Raising):
    """Raising, for an array whose own __array_interface__ shows float32
    elements DLPack describes: refusing to export them is a warning."""

    @property
    def __array_interface__(self):
        return self.array.__array_interface__


class DeviceRaises(Delegate):
    """__dlpack_device__ raises `exception` (a type or an instance:
    SystemExit(0) ends a careless interpreter quietly) once it has answered
    right `after` times."""

    def __init__(self, exception, after=0):
        super().__init__()
        self.exception = exception
        self.after = after

    def __dlpack_device__(self):
        self.after -= 1
        if self.after >= 0:
            return self.array.__dlpack_device__()
        raise self.exception


class SuaiRaises(DeviceRaises):
    """__sycl_usm_array_interface__ raises `exception`; the device is right."""

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    @property
    def __sycl_usm_array_interface__(self):
        raise self.exception


def _end_process(how):
    """Ends this process as foreign code may: "exit" (os._exit(0), which no
    handler sees), "segv" (a crash), or "hang"."""
    if how == "exit":
        os._exit(0)
    if how == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if how == "hang" and "DLPACK_USM_TEST_PIDS" in os.environ:
        with open(os.environ["DLPACK_USM_TEST_PIDS"], "a") as pids:
            pids.write(f"{os.getpid()}\n")
    while how == "hang":
        time.sleep(60)


class EndsProcess(Delegate):
    """__dlpack__ called with the keywords `when` (every call for None) ends
    the process `how` (_end_process); `device` is what __dlpack_device__
    says (the array's own by default), to see that the checks after the
    fatal call ran."""

    def __init__(self, how, when=None, device=None):
        super().__init__()
        self.how, self.when, self.device = how, when, device

    def __dlpack__(self, **kwargs):
        if self.when is None or kwargs == self.when:
            _end_process(self.how)
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.device or self.array.__dlpack_device__()


class _HostileDict(dict):
    """A dict whose get() raises SystemExit: code of the producer that the
    checker runs where it expects none."""

    def get(self, *arguments):
        raise SystemExit(0)


class SuaiHostileDict(Delegate):
    """__sycl_usm_array_interface__ is a _HostileDict."""

    @property
    def __sycl_usm_array_interface__(self):
        return _HostileDict(shape=(2, 3))


class _ExitsWhenDropped(tuple):
    def __del__(self):
        os._exit(0)


class FinalizerExits(Delegate):
    """__dlpack_device__ answers right, with a tuple whose finalizer calls
    os._exit(0) when the checker drops it: outside any call."""

    def __dlpack_device__(self):
        return _ExitsWhenDropped(self.array.__dlpack_device__())


class _Hostile:
    """Every attribute asked of it raises SystemExit(0)."""

    def __getattr__(self, name):
        raise SystemExit(0)


class ReturnsHostile(Delegate):
    """__dlpack__ returns an object whose __getattr__ raises SystemExit."""

    def __dlpack__(self, **kwargs):
        return _Hostile()
