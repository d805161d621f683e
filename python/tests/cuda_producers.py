"""CUDA producers built for the tests: a float32 vector over memory that
cupy.cuda.runtime allocates exactly (cudaMalloc, cudaMallocHost,
cudaMallocManaged; no memory pool), exported in a capsule this object makes
with the device type, device_id and length it is told. Told the truth it
is a correct producer; told otherwise it is one of the broken producers of
public issue trackers: a device_id hard-coded or counted in physical GPUs,
pinned or managed memory labelled kDLCUDA, device memory labelled
kDLCUDAHost or kDLCUDAManaged, a view whose extent runs past its
allocation. Needs cupy and a CUDA device (the GPU machine)."""

import ctypes

from producers import DLDataType, DLDevice, DLManagedTensorVersioned, _api

KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_CUDA_MANAGED = 13
_RIGHT_TYPE = {"device": KDL_CUDA, "host": KDL_CUDA_HOST, "managed": KDL_CUDA_MANAGED}


class DriverTensor:
    def __init__(self, memory="device", device_type=None, device_id=None, elements=1024,
                 claimed=None, offset=0, ordinal=0):
        import cupy
        self._runtime = cupy.cuda.runtime
        self.memory = memory
        self.ordinal = ordinal
        nbytes = elements * 4
        with cupy.cuda.Device(ordinal):
            if memory == "device":
                self.pointer = self._runtime.malloc(nbytes)
            elif memory == "host":
                self.pointer = self._runtime.hostAlloc(nbytes, 0)  # cudaHostAllocDefault
            else:
                self.pointer = self._runtime.mallocManaged(nbytes)
        self.device_type = _RIGHT_TYPE[memory] if device_type is None else device_type
        if device_id is None:
            device_id = ordinal if self.device_type == KDL_CUDA else 0
        self.device_id = device_id
        length = (elements - offset) if claimed is None else claimed
        self.shape = (ctypes.c_int64 * 1)(length)
        self.strides = (ctypes.c_int64 * 1)(1)
        self.tensor = DLManagedTensorVersioned()
        self.tensor.version.major = 1
        self.tensor.version.minor = 3
        self.tensor.dl_tensor.data = self.pointer + offset * 4
        self.tensor.dl_tensor.device = DLDevice(self.device_type, device_id)
        self.tensor.dl_tensor.ndim = 1
        self.tensor.dl_tensor.dtype = DLDataType(2, 32, 1)
        self.tensor.dl_tensor.shape = self.shape
        self.tensor.dl_tensor.strides = self.strides

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # Keeps the protocol as the standard asks: 0 is no CUDA stream, no
        # copies, no other device; capsules carry no destructor (this
        # object owns the memory).
        if stream == 0:
            raise ValueError("stream 0 is ambiguous for CUDA")
        if copy or (dl_device is not None and tuple(dl_device) != self.__dlpack_device__()):
            raise BufferError("this producer neither copies nor moves")
        name = b"dltensor_versioned" if max_version is not None and max_version[0] >= 1 \
            else None
        if name is None:
            raise BufferError("this producer exports DLPack 1.x only")
        return _api.PyCapsule_New(ctypes.addressof(self.tensor), name, None)

    def __dlpack_device__(self):
        return (self.device_type, self.device_id)

    def __del__(self):
        if not hasattr(self, "pointer"):
            return  # the allocation itself failed
        free = {"device": self._runtime.free, "host": self._runtime.freeHost,
                "managed": self._runtime.free}[self.memory]
        free(self.pointer)


class LateWrite:
    """A float32 vector whose write is still in flight when the object is
    made, as an array a library has just computed: on a non-blocking cupy
    stream of its own, slow work (products of 4096x4096 matrices) and then
    the write of known values. Its __dlpack__ exports the vector through
    cupy with stream=-1 (cupy orders nothing itself). With `wait` (the
    correct producer) it first makes the consumer's stream wait for the
    write (an event recorded on its own stream, as the standard's "wait for
    event"); without it, it hands the vector out at once: the broken
    producer of issue 27, caught by DLP-PY-STREAM-RACE. Needs cupy and a
    CUDA device."""

    ROUNDS = 8
    SIDE = 4096

    def __init__(self, wait=True, elements=1 << 20, ordinal=0):
        import cupy
        self._cupy = cupy
        self.wait = wait
        self.ordinal = ordinal
        with cupy.cuda.Device(ordinal):
            self._stream = cupy.cuda.Stream(non_blocking=True)
            with self._stream:
                self.array = cupy.full(elements, -1.0, dtype=cupy.float32)
                matrix = cupy.full((self.SIDE, self.SIDE), 1.0 / self.SIDE, dtype=cupy.float32)
                for _ in range(self.ROUNDS):
                    matrix = matrix @ matrix
                cupy.add(cupy.arange(elements, dtype=cupy.float32), matrix[0, 0] * self.SIDE,
                         out=self.array)
            self._written = self._stream.record()

    def _consumer_stream(self, stream):
        cuda = self._cupy.cuda
        if stream is None or stream == 1:
            return cuda.Stream.null
        if stream == 2:
            return cuda.Stream.ptds
        return cuda.ExternalStream(stream)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if stream == 0:
            raise ValueError("stream 0 is ambiguous for CUDA")
        if copy or (dl_device is not None and tuple(dl_device) != self.__dlpack_device__()):
            raise BufferError("this producer neither copies nor moves")
        if self.wait and stream != -1:
            with self._cupy.cuda.Device(self.ordinal):
                self._consumer_stream(stream).wait_event(self._written)
        if max_version is None:
            return self.array.__dlpack__(stream=-1)
        return self.array.__dlpack__(stream=-1, max_version=max_version)

    def __dlpack_device__(self):
        return (KDL_CUDA, self.ordinal)
