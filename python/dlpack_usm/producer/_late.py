"""Arrays whose elements are not written yet: what the stream checks
(_stream_race) hand to __dlpack__. For the libraries the tool knows (torch,
cupy, jax on CUDA; dpnp on SYCL) a LateSource has the library itself
enqueue slow work on its own stream or queue, ending in a write of known
values into a fresh array of the checked array's device, and returns that
array at once, its write still in flight. Any other producer's EXPR is
evaluated again for every attempt: its own construction is the pending
work (the broken producers of python/tests do that).

Every source says how to wait until its device is idle (settle), so that
the elements read then are what the array finally holds."""

import contextlib
import math
import time

from .._bridge import dlpack, library

# The elements of a late array: 4 MiB of float32, a write that is still in
# flight for a while after the library enqueued it.
LATE_ELEMENTS = 1 << 20
# How long the slow work ahead of the write runs: far longer than the tool
# takes to call __dlpack__ and start its read.
SLOW_WORK_S = 0.05
# The side of the square matrices the CUDA libraries multiply: its entries
# are 1/SIDE, which m @ m keeps exactly, so the work never overflows.
SIDE = 4096
MAX_ROUNDS = 64


def _rounds(one_round_s):
    """How many rounds of slow work make SLOW_WORK_S."""
    return max(1, min(MAX_ROUNDS, math.ceil(SLOW_WORK_S / max(one_round_s, 1e-6))))


def _timed(run, wait):
    """Seconds `run()` takes on the device, measured after a warm-up."""
    run()
    wait()
    start = time.perf_counter()
    run()
    wait()
    return time.perf_counter() - start


class LateSource:
    """Fresh arrays with a pending write. `make(attempt)` returns one;
    `current()` is the context in which the array is made and exported (the
    library's stream current, so that its __dlpack__ knows which work to
    order); `settle(late)` waits until the device is idle (for SYCL: the
queue of `late`); `kind` is "cuda" or
    "sycl"; `ordinal` the CUDA device, `queue` the SYCL queue; `label` names
    the work in notes."""

    kind = "cuda"
    ordinal = 0
    queue = None
    label = ""

    def make(self, attempt):
        raise NotImplementedError

    def current(self):
        return contextlib.nullcontext()

    def settle(self, late):
        library.cuda_synchronize(self.ordinal)


class _Torch(LateSource):
    def __init__(self, template):
        import torch
        self.torch = torch
        self.device = template.device
        self.ordinal = template.device.index or 0
        self.stream = torch.cuda.Stream(device=self.device)
        with self.current():
            self.base = torch.arange(LATE_ELEMENTS, dtype=torch.float32, device=self.device)
            self.matrix = torch.full((SIDE, SIDE), 1.0 / SIDE, dtype=torch.float32,
                                     device=self.device)
        self.rounds = _rounds(_timed(lambda: self.matrix @ self.matrix,
                                     torch.cuda.synchronize))
        self.label = (f"torch: {self.rounds} products of {SIDE}x{SIDE} float32 matrices, then "
                      f"torch.add(out=) of {LATE_ELEMENTS} elements, on a torch.cuda.Stream")

    def current(self):
        return self.torch.cuda.stream(self.stream)

    def make(self, attempt):
        late = self.torch.full((LATE_ELEMENTS,), -1.0, dtype=self.torch.float32,
                               device=self.device)
        m = self.matrix
        for _ in range(self.rounds):
            m = m @ m
        self.torch.add(self.base, float(attempt + 1), out=late)
        return late


class _Cupy(LateSource):
    def __init__(self, template):
        import cupy
        self.cupy = cupy
        self.ordinal = template.device.id
        self.device = cupy.cuda.Device(self.ordinal)
        with self.device:
            self.stream = cupy.cuda.Stream(non_blocking=True)
        with self.current():
            self.base = cupy.arange(LATE_ELEMENTS, dtype=cupy.float32)
            self.matrix = cupy.full((SIDE, SIDE), 1.0 / SIDE, dtype=cupy.float32)
            self.rounds = _rounds(_timed(lambda: self.matrix @ self.matrix,
                                         self.stream.synchronize))
        self.label = (f"cupy: {self.rounds} products of {SIDE}x{SIDE} float32 matrices, then "
                      f"cupy.add(out=) of {LATE_ELEMENTS} elements, on a non-blocking "
                      "cupy.cuda.Stream")

    def current(self):
        stack = contextlib.ExitStack()
        stack.enter_context(self.device)
        stack.enter_context(self.stream)
        return stack

    def make(self, attempt):
        late = self.cupy.full(LATE_ELEMENTS, -1.0, dtype=self.cupy.float32)
        m = self.matrix
        for _ in range(self.rounds):
            m = m @ m
        self.cupy.add(self.base, self.cupy.float32(attempt + 1), out=late)
        return late


class _Jax(LateSource):
    def __init__(self, template):
        import jax
        import jax.numpy as jnp
        self.jax = jax
        self.jnp = jnp
        device = next(iter(template.devices()))
        self.ordinal = getattr(device, "local_hardware_id", None) or 0
        self.base = jax.device_put(jnp.arange(LATE_ELEMENTS, dtype=jnp.float32), device)
        self.matrix = jax.device_put(jnp.full((SIDE, SIDE), 1.0 / SIDE, dtype=jnp.float32),
                                     device)
        zero = jnp.float32(0.0)
        one = self._compiled(1)
        self.rounds = _rounds(_timed(
            lambda: one(self.base, self.matrix, zero).block_until_ready(), lambda: None))
        self.function = self._compiled(self.rounds)
        # Compiled now: an attempt's call only dispatches.
        self.function(self.base, self.matrix, zero).block_until_ready()
        self.label = (f"jax: a jit function of {self.rounds} products of {SIDE}x{SIDE} float32 "
                      f"matrices whose result feeds the {LATE_ELEMENTS} elements it returns")

    def _compiled(self, rounds):
        jnp = self.jnp

        def late(base, matrix, offset):
            for _ in range(rounds):
                matrix = matrix @ matrix
            # matrix[0, 0] * SIDE is 1: the output waits for the products.
            return base + offset + (matrix[0, 0] * SIDE - 1.0)

        return self.jax.jit(late)

    def make(self, attempt):
        return self.function(self.base, self.matrix, self.jnp.float32(attempt + 1))


class _Dpnp(LateSource):
    kind = "sycl"
    # dpnp's operations on this CPU device barely outlast their submission:
    # the slow work is copies between two scratch allocations, which dpctl
    # submits without waiting, ordered before dpnp's write by the queue's
    # SequentialOrderManager (the one dpnp's operations follow).
    SCRATCH_BYTES = 32 << 20

    def __init__(self, template):
        import dpctl.memory
        import dpnp
        from dpctl.utils import SequentialOrderManager
        self.dpnp = dpnp
        self.queue = template.sycl_queue
        self.manager = SequentialOrderManager[self.queue]
        self.base = dpnp.arange(LATE_ELEMENTS, dtype=dpnp.float32, sycl_queue=self.queue)
        self.scratch = [dpctl.memory.MemoryUSMDevice(self.SCRATCH_BYTES, queue=self.queue)
                        for _ in range(2)]
        self.rounds = _rounds(_timed(lambda: self._copy(0), self.queue.wait))
        self.label = (f"dpnp: {self.rounds} copies of {self.SCRATCH_BYTES >> 20} MiB on the "
                      f"array's queue, then dpnp.add(out=) of {LATE_ELEMENTS} float32 elements "
                      "behind them")

    def _copy(self, index):
        event = self.queue.memcpy_async(self.scratch[index % 2], self.scratch[1 - index % 2],
                                        self.SCRATCH_BYTES, dEvents=self.manager.submitted_events)
        self.manager.add_event_pair(event, event)

    def make(self, attempt):
        late = self.dpnp.full(LATE_ELEMENTS, -1.0, dtype=self.dpnp.float32, sycl_queue=self.queue)
        for index in range(self.rounds):
            self._copy(index)
        self.dpnp.add(self.base, float(attempt + 1), out=late)
        return late

    def settle(self, late):
        self.manager.wait()
        self.queue.wait()


class _Remade(LateSource):
    """A producer the tool does not know: EXPR evaluated again each time."""

    def __init__(self, remake, kind, ordinal, queue):
        self.remake = remake
        self.kind, self.ordinal, self.queue = kind, ordinal, queue
        self.label = "EXPR evaluated again for every attempt (its own pending work)"

    def make(self, attempt):
        return self.remake()

    def settle(self, late):
        if self.kind == "cuda":
            super().settle(late)
            return
        # Each evaluation of EXPR may make a queue of its own.
        queue = _sycl_queue(late) or self.queue
        queue.wait()


_KNOWN = {"torch": _Torch, "cupy": _Cupy, "jax": _Jax, "jaxlib": _Jax, "dpnp": _Dpnp}


def _sycl_queue(obj):
    """The dpctl.SyclQueue of a SYCL array (its syclobj), or None."""
    try:
        queue = getattr(obj, "sycl_queue", None)
        if queue is None:
            queue = obj.__sycl_usm_array_interface__.get("syclobj")
    except BaseException:  # noqa: B036 - the producer's attributes are its code
        return None
    return queue if type(queue).__name__ == "SyclQueue" else None


def late_source(obj, device, remake):
    """(LateSource, None) for the array `obj` on `device` (a DLPack
    (type, id)), or (None, why not). `remake` evaluates EXPR again (None in
    the Python API, which has no EXPR)."""
    module = type(obj).__module__.split(".")[0]
    known = _KNOWN.get(module)
    if known is not None:
        return known(obj), None
    if dlpack.on(device, "kDLOneAPI"):
        queue = _sycl_queue(obj)
        if queue is None:
            return None, ("the array names no dpctl.SyclQueue (sycl_queue or syclobj): the "
                          "tool cannot tell when its device is idle")
        kind, ordinal = "sycl", 0
    else:
        kind, ordinal, queue = "cuda", device[1] if dlpack.on(device, "kDLCUDA") else 0, None
    if remake is None:
        return None, (f"{module} arrays are not among those the tool makes late itself (torch, "
                      "cupy, jax, dpnp); `python3 -m dlpack_usm check EXPR` evaluates EXPR "
                      "again for every attempt instead")
    return _Remade(remake, kind, ordinal, queue), None
