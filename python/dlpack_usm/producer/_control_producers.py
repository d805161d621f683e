"""The tool's own correct producers, for the controls of the stream checks
(_stream_control): late work on the producer's runtime, device and queue
kind, and the producer's part of the protocol done right by hand.

For the libraries whose late work the tool itself writes (_late: dpnp,
torch, cupy), the control makes that same work on the library's own queue
or stream and hands it over by hand (SourceControl): the experiment
differs from the checked one only in who does the wait. For any other
producer (EXPR evaluated again, jax) the tool makes late work of its own
(SyclControl, CudaControl), never the library's code, so that a library
whose pending work the runtime does not know of cannot pass its defect off
as the runtime's.

SYCL (dpctl): on a queue of the same context, device and ordering as the
producer's, slow copies between two scratch allocations, each waiting for
the one before, then the copy of known values into the late allocation;
handed over with `consumer.submit_barrier([queue.submit_barrier()])`.
CUDA (cupy, where installed): on a non-blocking stream of the tool,
products of float32 matrices, then the write of known values; handed over
with an event recorded on that stream which the consumer's stream waits
for."""

from . import _late

SCRATCH_BYTES = 32 << 20


class SyclControl:
    """Late USM of the tool's own on a queue like `producer_queue`."""

    def __init__(self, producer_queue):
        import dpctl
        import dpctl.memory
        import numpy
        ordering = {"property": "in_order"} if producer_queue.is_in_order else {}
        self.queue = dpctl.SyclQueue(producer_queue.sycl_context, producer_queue.sycl_device,
                                     **ordering)
        self.size = 4 * _late.LATE_ELEMENTS
        self.late = dpctl.memory.MemoryUSMDevice(self.size, queue=self.queue)
        self.known = dpctl.memory.MemoryUSMDevice(self.size, queue=self.queue)
        # dpctl copies bytes: the float32 values as their uint8 view.
        self.known.copy_from_host(
            numpy.arange(_late.LATE_ELEMENTS, dtype=numpy.float32).view(numpy.uint8))
        self.blank = numpy.full(_late.LATE_ELEMENTS, -1.0, dtype=numpy.float32).view(numpy.uint8)
        self.scratch = [dpctl.memory.MemoryUSMDevice(SCRATCH_BYTES, queue=self.queue)
                        for _ in range(2)]
        self.rounds = _late._rounds(_late._timed(lambda: self._slow_work(1), self.queue.wait))
        self.runtime = _sycl_runtime_name(producer_queue)
        self.label = (f"the tool's {self.rounds} copies of {SCRATCH_BYTES >> 20} MiB, then a "
                      f"copy of {self.size} bytes, on a queue like the producer's")

    def _slow_work(self, rounds):
        event = None
        for index in range(rounds):
            after = [event] if event is not None else None
            event = self.queue.memcpy_async(self.scratch[index % 2], self.scratch[1 - index % 2],
                                            SCRATCH_BYTES, dEvents=after)
        return event

    def make(self):
        """(address, size) of the late allocation, its write in flight."""
        self.late.copy_from_host(self.blank)
        slow = self._slow_work(self.rounds)
        self.queue.memcpy_async(self.late, self.known, self.size, dEvents=[slow])
        return self.late._pointer, self.size

    def hand_over(self, consumer):
        consumer.submit_barrier([self.queue.submit_barrier()])

    def settle(self):
        self.queue.wait()


class CudaControl:
    """Late device memory of the tool's own, written on its own stream."""

    def __init__(self, ordinal):
        import cupy
        self.cupy = cupy
        self.device = cupy.cuda.Device(ordinal)
        with self.device:
            self.stream = cupy.cuda.Stream(non_blocking=True)
            with self.stream:
                self.base = cupy.arange(_late.LATE_ELEMENTS, dtype=cupy.float32)
                self.late = cupy.empty(_late.LATE_ELEMENTS, dtype=cupy.float32)
                self.matrix = cupy.full((_late.SIDE, _late.SIDE), 1.0 / _late.SIDE,
                                        dtype=cupy.float32)
                self.rounds = _late._rounds(_late._timed(lambda: self.matrix @ self.matrix,
                                                         self.stream.synchronize))
        self.runtime = _cuda_runtime_name()
        self.label = (f"the tool's {self.rounds} products of {_late.SIDE}x{_late.SIDE} float32 "
                      "matrices, then its write, on a non-blocking stream of the tool")

    def make(self):
        with self.device, self.stream:
            self.late.fill(-1.0)
            self.stream.synchronize()
            m = self.matrix
            for _ in range(self.rounds):
                m = m @ m
            # m[0, 0] * SIDE is 1: the write waits for the products.
            self.cupy.add(self.base, m[0, 0] * _late.SIDE, out=self.late)
        return self.late.data.ptr, self.late.nbytes

    def hand_over(self, consumer):
        with self.device:
            self.cupy.cuda.ExternalStream(consumer).wait_event(self.stream.record())

    def settle(self):
        self.device.synchronize()


class SourceControl:
    """The late work of a LateSource the tool writes itself, handed over by
    the tool: a barrier on the library's queue (dpnp), an event recorded on
    the library's stream (torch, cupy)."""

    def __init__(self, source, library):
        self.source, (self._address, self._hand_over) = source, library
        self.runtime = _runtime_name(source)
        self.label = f"{source.label}, then the wait done by the tool"
        self.late, self.attempt = None, 0

    def make(self):
        self.attempt += 1
        self.late = None
        with self.source.current():
            self.late = self.source.make(self.attempt)
        return self._address(self.late), self.late.nbytes

    def hand_over(self, consumer):
        self._hand_over(self.source, consumer)

    def settle(self):
        # The array stays until the next make(): its elements are read again
        # once the device is idle.
        self.source.settle(self.late)


def _dpnp_hand_over(source, consumer):
    consumer.submit_barrier([source.queue.submit_barrier()])


def _torch_hand_over(source, consumer):
    event = source.torch.cuda.Event()
    event.record(source.stream)
    source.torch.cuda.ExternalStream(consumer, device=source.device).wait_event(event)


def _cupy_hand_over(source, consumer):
    with source.device:
        source.cupy.cuda.ExternalStream(consumer).wait_event(source.stream.record())


# The address of a late array, asked in a way that waits for nothing (the
# array interfaces of some libraries wait for the array's pending work).
def _dpnp_address(late):
    usm = late.get_array()
    return usm.usm_data._pointer + usm._element_offset * usm.itemsize


_LIBRARIES = {"_Dpnp": (_dpnp_address, _dpnp_hand_over),
              "_Torch": (lambda late: late.data_ptr(), _torch_hand_over),
              "_Cupy": (lambda late: late.data.ptr, _cupy_hand_over)}


def _sycl_runtime_name(queue):
    device = queue.sycl_device
    platform = device.sycl_platform
    return f"{platform.name} ({platform.version}, driver {device.driver_version}, through dpctl)"


def _cuda_runtime_name():
    try:
        import cupy
        version = cupy.cuda.runtime.driverGetVersion()
        return f"the CUDA driver ({version // 1000}.{version % 1000 // 10})"
    except Exception:  # noqa: BLE001 - the name only
        return "the CUDA driver"


def _runtime_name(source):
    return _sycl_runtime_name(source.queue) if source.kind == "sycl" else _cuda_runtime_name()


def control_producer(source):
    """(the tool's producer for `source`'s runtime, None) or (None, why
    there is none)."""
    try:
        library = _LIBRARIES.get(type(source).__name__)
        if library is not None:
            return SourceControl(source, library), None
        if source.kind == "sycl":
            return SyclControl(source.queue), None
        return CudaControl(source.ordinal), None
    except ImportError as missing:
        return None, f"the tool's own producer needs {missing.name}, which is not installed"
    except Exception as error:  # noqa: BLE001 - no control; the library is judged without one
        return None, f"the tool's own producer could not be made: {type(error).__name__}: {error}"
