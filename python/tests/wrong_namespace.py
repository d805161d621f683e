"""An array API namespace over numpy whose arrays export wrongly, on purpose,
for `python3 -m dlpack_usm profile wrong_namespace`: __dlpack__ ignores
every keyword (a versioned capsule of the array's own memory for each
request: to a DLPack 0.x consumer, for another device with copy=False, for
copy=True without IS_COPIED, for a stream on the CPU); an int8 array's
capsule has a negative extent; stream=2 ends the process (SIGABRT) and
stream=-1 never returns; broadcast_to ends the process too, so that the
broadcast cell cannot even be made. The standard's functions are numpy's,
each array wrapped."""

import os
import time

import numpy

from producers import OwnTensor

bool = numpy.bool_  # noqa: A001 - the standard's dtype name
int8, int16, int32, int64 = numpy.int8, numpy.int16, numpy.int32, numpy.int64
uint8, uint16, uint32, uint64 = numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64
float32, float64 = numpy.float32, numpy.float64
complex64, complex128 = numpy.complex64, numpy.complex128


class NegativeExtent(OwnTensor):
    """A float32 vector laid out with ctypes whose extent is -4."""

    def __init__(self):
        super().__init__()
        self.shape[0] = -4


class Array:
    """A numpy array whose __dlpack__ ignores what it is asked."""

    def __init__(self, array):
        self.array = array
        self.wrong = NegativeExtent() if array.dtype == numpy.int8 else None

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream == 2:
            os.abort()
        if stream == -1:
            time.sleep(3600)
        if self.wrong is not None:
            return self.wrong.__dlpack__()
        return self.array.__dlpack__(max_version=(1, 0))

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    @property
    def dtype(self):
        return self.array.dtype

    @property
    def T(self):
        return Array(self.array.T)

    def __getitem__(self, key):
        return Array(self.array[key])


def _wrapped(function):
    def call(*arguments, device=None, **keywords):
        unwrapped = [argument.array if isinstance(argument, Array) else argument
                     for argument in arguments]
        return Array(function(*unwrapped, **keywords))
    return call


asarray, zeros, ones, arange, reshape, flip = (
    _wrapped(function) for function in (numpy.asarray, numpy.zeros, numpy.ones, numpy.arange,
                                        numpy.reshape, numpy.flip))
permute_dims = _wrapped(numpy.transpose)


def broadcast_to(array, shape):
    os.abort()


def from_dlpack(array):
    return numpy.from_dlpack(array)
