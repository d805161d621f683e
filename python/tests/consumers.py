"""Consumers for the consumer checks' own tests: each breaks one rule of
the consumer matrix (numpy does the protocol's work where a consumer needs
it), and a helper that runs them through the one engine on a few cells of
kDLCPU memory."""

import ctypes
import os
import signal
import sys
import time

import numpy as np

from dlpack_usm._bridge import capsules
from dlpack_usm.consumer import _readback

_set_name = ctypes.pythonapi.PyCapsule_SetName
_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]
_set_name.restype = ctypes.c_int
_USED = {"dltensor": b"used_dltensor", "dltensor_versioned": b"used_dltensor_versioned"}
_DELETER_OFFSET = {"dltensor": 56, "dltensor_versioned": 16}
_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
KEPT = []


class Holder:
    """Hands one capsule on (to numpy.from_dlpack)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **keywords):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def _deleter_of(capsule):
    name = capsules.capsule_name(capsule)
    pointer = capsules.capsule_pointer(capsule, name)
    return pointer, _Deleter(ctypes.c_void_p.from_address(pointer + _DELETER_OFFSET[name]).value)


def reads_reversed(x):
    """Wrong data: the rows in reverse order."""
    return np.from_dlpack(x)[::-1]


def refuses(x):
    x.__dlpack__(max_version=(1, 0))
    raise ValueError("this consumer takes nothing")


def declines_odd_extent1_strides(x):
    """numpy's import, after a stride check that also judges axes of extent
    1, where a stride addresses nothing (the bug of TVM, Triton, ...)."""
    capsule = x.__dlpack__(max_version=(1, 0))
    tensor = _readback._describe(capsule)["dl_tensor"]
    shape, strides = tensor.get("shape") or [], tensor.get("strides")
    compact = 1
    for extent, stride in reversed(list(zip(shape, strides or shape))):
        if strides is not None and extent == 1 and stride != compact:
            raise BufferError("only compact row-major strides are supported")
        compact *= extent
    return np.from_dlpack(Holder(capsule))


def declines_bool_with_runtime_error(x):
    """numpy 2.4's way to decline a dtype: RuntimeError, not BufferError."""
    if x._cell == "dtype-bool":
        x.__dlpack__(max_version=(1, 0))
        raise RuntimeError("Unsupported dtype in DLTensor.")
    return np.from_dlpack(x)


def returns_none(x):
    """Takes the tensor, and hands its user nothing to read."""
    np.from_dlpack(x)
    return None


def never_asks(x):
    """Returns an array without asking the producer for the tensor."""
    return np.zeros((3, 5), dtype=np.float32)


def declines(x):
    x.__dlpack__(max_version=(1, 0))
    raise BufferError("this consumer supports nothing")


def accepts_anything(x):
    """Takes the tensor over (renames, calls the deleter) without looking at it."""
    capsule = x.__dlpack__(max_version=(1, 3))
    name = capsules.capsule_name(capsule)
    pointer, deleter = _deleter_of(capsule)
    _set_name(capsule, _USED[name])
    deleter(pointer)
    return np.zeros(1, dtype=np.float32)


def legacy_accepts_anything(x):
    """accepts_anything through a legacy capsule (no max_version, as jax asks)."""
    capsule = x.__dlpack__()
    pointer, deleter = _deleter_of(capsule)
    _set_name(capsule, _USED[capsules.capsule_name(capsule)])
    deleter(pointer)
    return np.zeros(1, dtype=np.float32)


def leaks(x):
    """Keeps numpy's array alive for ever: the deleter never runs."""
    array = np.from_dlpack(x)
    KEPT.append(array)
    return array.copy()


def deletes_twice(x):
    capsule = x.__dlpack__(max_version=(1, 0))
    pointer, deleter = _deleter_of(capsule)
    copy = np.from_dlpack(Holder(capsule)).copy()  # numpy's array dies: the deleter runs
    deleter(pointer)                               # and once more
    return copy


def keeps_name(x):
    """Reads the elements itself and never renames the capsule."""
    capsule = x.__dlpack__(max_version=(1, 0))
    described = _readback._describe(capsule)
    elements = _readback._gather_host(described["dl_tensor"])
    tensor = described["dl_tensor"]
    return np.frombuffer(elements, dtype=np.float32).reshape(tensor["shape"]).copy()


def writes_read_only(x):
    array = np.from_dlpack(x)
    copy = array.copy()
    ctypes.memset(array.ctypes.data, 0, 4)
    return copy


def aborts_on_f_order(x):
    if x._cell == "f-order":
        os.abort()
    return np.from_dlpack(x)


def hangs_on_f_order(x):
    if x._cell == "f-order":
        time.sleep(120)
    return np.from_dlpack(x)


def hangs(x):
    """Waits for an event that never comes, on every cell."""
    time.sleep(120)
    return np.from_dlpack(x)


def check(names, cells, *options, tmp_path):
    """`dlpack-usm check --python-consumer consumers.NAME ...` (what
    `python3 -m dlpack_usm consume` runs) for each of `names`, on kDLCPU
    memory and `cells` only (a list, or a list per name), in one run: its
    engine_runs.Run, seen through the consumer where there is one (Run.of
    picks one of several)."""
    import engine_runs
    expression = {name: name if "." in name else f"consumers.{name}" for name in names}
    arguments = [word for name in names for word in ("--python-consumer", expression[name])]
    arguments += ["--device", "cpu"]
    if isinstance(cells, dict):
        # The cases asked for, by their ids (--cell would give each every cell).
        arguments += [word for name in names for cell in cells[name]
                      for word in ("--filter", f"{engine_runs.label(expression[name])}"
                                               f"/consumer/cpu/*/{cell}")]
    else:
        arguments += [word for cell in cells for word in ("--cell", cell)]
    found = engine_runs.check(*arguments, *options, tmp_path=tmp_path)
    return found.of(expression[names[0]]) if len(names) == 1 else found


def rules(result):
    return sorted({finding["rule_id"] for finding in result.get("findings", [])})


def returns_wrong_list(x):
    """Takes the tensor and returns a list of the offered shape, all zeros."""
    array = np.from_dlpack(x)
    return [[0.0] * array.shape[1]] * array.shape[0]


class _ArrayRaises:
    """An array-like whose __array__ raises `exception`."""

    def __init__(self, exception):
        self.exception = exception

    def __array__(self, *arguments, **keywords):
        raise self.exception


class _DlpackRaises:
    """An array whose __dlpack__ raises SystemExit, the way back closed."""

    def __dlpack__(self, **keywords):
        raise SystemExit(0)

    def __dlpack_device__(self):
        return (1, 0)


class _AttributesRaise:
    """Every attribute asked of it raises SystemExit."""

    def __getattr__(self, name):
        raise SystemExit(0)


def returns_array_raising(exception):
    """A consumer that takes the tensor and returns an object whose
    __array__ raises `exception`."""
    def consumer(x):
        np.from_dlpack(x)
        return _ArrayRaises(exception)
    return consumer


def returns_dlpack_raising(x):
    np.from_dlpack(x)
    return _DlpackRaises()


def returns_attributes_raising(x):
    np.from_dlpack(x)
    return _AttributesRaise()


def _note_pid(pid):
    """Appends `pid` to the file DLPACK_USM_TEST_PIDS names."""
    with open(os.environ["DLPACK_USM_TEST_PIDS"], "a") as pids:
        pids.write(f"{pid}\n")


def forks_on_c_order(x):
    """Forks on the c-order cell, and both processes carry on as if nothing
    happened: the copy returns into the case runner."""
    if x._cell == "c-order":
        os.fork()
    return np.from_dlpack(x)


def _daemon():
    """Forks a daemon (setsid, a second fork) that sleeps; notes its pid."""
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            _note_pid(os.getpid())
            os.write(write_end, b"x")
            time.sleep(30)
        os._exit(0)
    os.read(read_end, 1)
    os.close(read_end)
    os.close(write_end)


def leaves_children(x):
    """On c-order: three children that linger and three daemons, pids noted."""
    import subprocess
    if x._cell == "c-order":
        for _ in range(3):
            _note_pid(subprocess.Popen(["sleep", "30"]).pid)
            _daemon()
    return np.from_dlpack(x)


def hangs_on_bool_noting_pid(x):
    if x._cell == "dtype-bool":
        _note_pid(os.getpid())
        time.sleep(60)
    return np.from_dlpack(x)


def chatters_on_c_order(x):
    """On c-order, writes a line of chatter on every descriptor from 100 on,
    where the worker's result channel lies (_worker/_channel.py)."""
    if x._cell == "c-order":
        for entry in os.listdir("/proc/self/fd"):
            if int(entry) >= 100:
                try:
                    os.write(int(entry), b"chatter\n")
                except OSError:
                    pass
    return np.from_dlpack(x)


# CUDA consumers for the stream case (consumer/_cuda_stream.py; the GPU
# machine): cupy.from_dlpack asking through a producer that sees another
# stream than cupy passed.

class _StreamForced:
    """The producer as a consumer that passes `stream` sees it, whatever
    stream cupy asks for."""

    def __init__(self, producer, stream):
        self.producer, self.stream = producer, stream

    def __dlpack__(self, **keywords):
        keywords["stream"] = self.stream
        return self.producer.__dlpack__(**keywords)

    def __dlpack_device__(self):
        return self.producer.__dlpack_device__()


def cuda_passes_zero(x):
    """Passes stream=0, which the standard disallows for CUDA."""
    import cupy
    return cupy.from_dlpack(_StreamForced(x, 0))


def cuda_reads_on_its_own_stream(x):
    """Passes no stream (the legacy default stream), then copies the data on
    a non-blocking stream of its own: a read the producer never ordered."""
    import cupy
    with cupy.cuda.Stream(non_blocking=True):
        return cupy.from_dlpack(_StreamForced(x, None)).copy()


def cuda_copies_on_the_stream_it_passes(x):
    """cupy.from_dlpack under a non-blocking stream, then a copy there:
    cupy passes that stream, so the producer orders its write before it."""
    import cupy
    with cupy.cuda.Stream(non_blocking=True):
        return cupy.from_dlpack(x).copy()


def cuda_passes_a_stream_of_device_1(x):
    """Passes a stream of CUDA device 1 for an array of device 0."""
    import cupy
    with cupy.cuda.Device(1):
        stream = cupy.cuda.Stream(non_blocking=True)
    return cupy.from_dlpack(_StreamForced(x, stream.ptr))


_calls_in_this_process = []


def crashes_on_second_call(x):
    """Takes the first tensor of each process, and aborts the process on
    its second call: a consumer whose state a worker's earlier case spoiled."""
    _calls_in_this_process.append(x._cell)
    if len(_calls_in_this_process) == 2:
        os.abort()
    return np.from_dlpack(x)


def forks_a_daemon_on_c_order(x):
    """On c-order: a daemon (setsid, a second fork) that sleeps as a process
    whose command line holds DLPACK_USM_TEST_TOKEN, so that a test outside
    the worker's PID namespace can find it."""
    if x._cell == "c-order" and os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            _note_pid(os.getpid())
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(30)",
                                      os.environ["DLPACK_USM_TEST_TOKEN"]])
        os._exit(0)
    time.sleep(0.2)
    return np.from_dlpack(x)


def kills_its_parent_on_f_order(x):
    """On f-order: SIGKILL to the process that started the consumer's."""
    if x._cell == "f-order":
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(5)
    return np.from_dlpack(x)


def kills_its_group_on_f_order(x):
    """On f-order: SIGKILL to its whole process group."""
    if x._cell == "f-order":
        os.killpg(0, signal.SIGKILL)
    return np.from_dlpack(x)


def needs_its_own_proc(x):
    """numpy.from_dlpack where /proc/self is this process, as CUDA's runtime
    needs it (it fails to start in a PID namespace that sees the runner's
    /proc); declines where it is not."""
    if os.readlink("/proc/self") != str(os.getpid()):
        raise BufferError(f"/proc/self is {os.readlink('/proc/self')}, not pid {os.getpid()}")
    return np.from_dlpack(x)


# Text a library may put in an exception: control characters, XML's own
# characters and a lone surrogate (undecodable bytes, as Python holds them).
HOSTILE_TEXT = "bad\x01 <&> \udcff\x1b]"


def declines_extent1_strides_saying_hostile_text(x):
    """declines_odd_extent1_strides, declining with HOSTILE_TEXT."""
    try:
        return declines_odd_extent1_strides(x)
    except BufferError:
        raise BufferError(HOSTILE_TEXT) from None


def ignores_copy(x, copy=None):
    """Takes the copy keyword and returns a view whatever it says."""
    return np.from_dlpack(x)


def copies_always(x, copy=None):
    """Asks the producer for a copy whatever copy says."""
    return np.from_dlpack(x, copy=True)
