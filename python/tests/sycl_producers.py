"""SYCL producers built for the tests of the stream checks: a float32
vector whose write is still in flight on a queue of the producer's own
when the object is made. Needs dpnp and dpctl (the CI machine's Intel CPU
device)."""

# Slow work ahead of the write: copies back and forth between two scratch
# allocations of this many bytes, which the SYCL runtime runs
# asynchronously (tens of milliseconds on a CPU device).
SCRATCH_BYTES = 32 << 20
SCRATCH_COPIES = 4
KDL_CPU = 1


def _memory(array):
    """The dpctl.memory object of a dpnp array's allocation."""
    return array.get_array().usm_data


class LateSyclWrite:
    """On an in-order dpctl.SyclQueue of its own (the default device, in its
    platform's default context): slow work (dpctl memcpy_async between two
    scratch allocations) and then the write of known values into the
    vector, a copy on the same queue. With `wait` (the correct producer) its
    __dlpack__ waits for its queue before it exports, whatever stream it is
    given; without it, it exports at once through dpnp with stream=None (no
    synchronisation): the broken producer of issue 27, caught by
    DLP-PY-STREAM-RACE. Asked for dl_device=(kDLCPU, 0) it copies the
    vector into host memory on its queue and exports that (numpy's
    capsule); without `wait` before the copy has finished
    (DLP-PY-STREAM-CPU-SYNC)."""

    def __init__(self, wait=True, elements=1 << 18):
        import dpctl
        import dpctl.memory
        import dpnp
        self.wait = wait
        device = dpnp.empty(1).sycl_device
        self.sycl_queue = dpctl.SyclQueue(device.sycl_platform.default_context, device,
                                          property="in_order")
        queue = self.sycl_queue
        self.array = dpnp.full(elements, -1.0, dtype=dpnp.float32, sycl_queue=queue)
        self._known = dpnp.arange(elements, dtype=dpnp.float32, sycl_queue=queue) + 1.0
        self._scratch = [dpctl.memory.MemoryUSMDevice(SCRATCH_BYTES, queue=queue)
                         for _ in range(2)]
        queue.wait()
        for copy in range(SCRATCH_COPIES):
            queue.memcpy_async(self._scratch[copy % 2], self._scratch[1 - copy % 2],
                               SCRATCH_BYTES)
        queue.memcpy_async(_memory(self.array), _memory(self._known), 4 * elements)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if dl_device is not None and tuple(dl_device) == (KDL_CPU, 0):
            return self._host_copy(max_version, copy)
        if self.wait:
            self.sycl_queue.wait()
        return self.array.__dlpack__(max_version=max_version, dl_device=dl_device, copy=copy)

    def _host_copy(self, max_version, copy):
        import numpy
        if copy is False:
            raise BufferError("the vector lives in device memory: a host capsule is a copy")
        self._host = numpy.empty(self.array.shape, dtype=numpy.float32)
        copied = self.sycl_queue.memcpy_async(self._host, _memory(self.array),
                                              self._host.nbytes)
        if self.wait:
            copied.wait()
        return self._host.__dlpack__(max_version=max_version)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class _ShiftedDeviceId:
    """dpnp's export of an array, with device_id one above the array's own
    in __dlpack_device__ and in the versioned tensor: a kDLOneAPI producer
    that departs from the seed protocol's numbering."""

    def __init__(self, array):
        self.array = array

    def __dlpack_device__(self):
        device_type, device_id = self.array.__dlpack_device__()
        return device_type, device_id + 1

    def __dlpack__(self, **kwargs):
        from producers import DLManagedTensorVersioned, _api
        capsule = self.array.__dlpack__(**kwargs)
        pointer = _api.PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        DLManagedTensorVersioned.from_address(pointer).dl_tensor.device.device_id += 1
        return capsule


def shifted_device_id(array):
    """A producer for `device-ids --producer`: the array's memory exported
    with the next device id."""
    return _ShiftedDeviceId(array)
