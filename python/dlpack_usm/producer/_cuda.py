"""kDLCUDA, kDLCUDAHost and kDLCUDAManaged from Python: what the CUDA driver
of this process says about a tensor's pointer (through the bridge, which
opens libcuda.so.1 itself: torch, cupy and jax in the same process share
that driver and its device numbering), and the stream argument of
__dlpack__ as the array API standard defines it for CUDA."""

import ctypes

from .._bridge import dlpack, library
from .._bridge.errors import BridgeError
from ..rules import finding
from ._foreign import calling

CUDA_DEVICE_TYPES = ("kDLCUDA", "kDLCUDAHost", "kDLCUDAManaged")
# Device types whose __dlpack__ takes a CUDA stream: the memory of one GPU
# (kDLCUDA) or memory any GPU may be writing (kDLCUDAManaged).
STREAM_DEVICE_TYPES = ("kDLCUDA", "kDLCUDAManaged")

# The values the standard gives __dlpack__'s stream for CUDA, besides a
# stream pointer: -1 (no synchronisation), 1 (legacy default stream), 2
# (per-thread default stream). 0 is disallowed.
STREAM_CONSTANTS = (-1, 1, 2)


def runtime_facts(address):
    """(the capsule-file "runtime" section for the pointer `address`, None),
    or (None, why) when this process has no usable CUDA driver."""
    result = ctypes.c_void_p()
    code = library.library().dlpack_usm_bridge_cuda_pointer(address, ctypes.byref(result))
    try:
        return library.read_answer(code, result)["runtime"], None
    except BridgeError as error:
        if error.exit_code != 3:
            raise
        return None, f"CUDA runtime facts not read: {error.message}"


class Stream:
    """A stream of one device's primary context, made and destroyed by the
    bridge; the consumer's stream a producer is asked to order work on."""

    def __init__(self, ordinal):
        handle = ctypes.c_uint64()
        result = ctypes.c_void_p()
        code = library.library().dlpack_usm_bridge_cuda_stream_create(
            ordinal, ctypes.byref(handle), ctypes.byref(result))
        library.read_answer(code, result)
        self.handle = handle.value

    def close(self):
        result = ctypes.c_void_p()
        code = library.library().dlpack_usm_bridge_cuda_stream_destroy(self.handle,
                                                                       ctypes.byref(result))
        library.read_answer(code, result)


def _ask_stream(obj, stream, max_version):
    """None when __dlpack__(stream=stream, ...) gave something, else the
    exception it raised (without traceback, which would keep obj alive).
    Asked as a consumer of the array API asks: with max_version, and
    without it where the producer raises TypeError."""
    try:
        try:
            with calling(f"__dlpack__(stream={stream!r}, max_version={max_version!r})"):
                capsule = obj.__dlpack__(stream=stream, max_version=max_version)
        except TypeError:
            with calling(f"__dlpack__(stream={stream!r})"):
                capsule = obj.__dlpack__(stream=stream)
    except BaseException as error:  # noqa: B036 - what a producer raises is the thing under test
        return error.with_traceback(None)
    del capsule  # dropped at once: its destructor frees the tensor
    return None


def judge_stream(keywords, error):
    """The finding on one answer of a CUDA array's __dlpack__(stream=...):
    a capsule for stream=0 (DLP-PY-STREAM-CUDA-ZERO), or a refusal of a
    value the standard defines (DLP-PY-STREAM-CUDA-REFUSED, information);
    `error` is what it raised, None where it gave a capsule."""
    stream = keywords["stream"]
    if stream == 0:
        return [] if error is not None else [
            finding("DLP-PY-STREAM-CUDA-ZERO", "__dlpack__",
                    "__dlpack__(stream=0) returned a capsule for a CUDA array; 0 is "
                    "disallowed for CUDA (None, 1 or 2?): raise instead of guessing")]
    if error is None:
        return []
    return [finding("DLP-PY-STREAM-CUDA-REFUSED", "__dlpack__",
                    f"stream={stream} raised {type(error).__name__} ({error}), a value the "
                    "standard defines for CUDA. A consumer that passes it gets no tensor")]


def check_streams(obj, device, max_version):
    """(findings, notes) of the CUDA stream argument: 0 must not be taken
    for a stream (DLP-PY-STREAM-CUDA-ZERO); the values the standard defines
    (-1, 1, 2, a stream pointer) are optional, so a refusal is reported as
    information (DLP-PY-STREAM-CUDA-REFUSED). Nothing for other devices."""
    if not dlpack.on(device, *STREAM_DEVICE_TYPES):
        return [], []
    found, notes = judge_stream({"stream": 0}, _ask_stream(obj, 0, max_version)), []
    refused = []
    for value in STREAM_CONSTANTS:
        error = _ask_stream(obj, value, max_version)
        if error is not None:
            refused.append(f"stream={value} raised {type(error).__name__} ({error})")
    # A stream of the array's own device; a managed array's device_id is 0.
    ordinal = device[1] if dlpack.on(device, "kDLCUDA") else 0
    try:
        stream = Stream(ordinal)
    except BridgeError as error:
        notes.append(f"__dlpack__(stream=<a CUDA stream>) not tried: {error.message}")
        stream = None
    if stream is not None:
        try:
            error = _ask_stream(obj, stream.handle, max_version)
            if error is not None:
                refused.append(f"stream={stream.handle:#x} (a stream of CUDA device {ordinal}) "
                               f"raised {type(error).__name__} ({error})")
        finally:
            stream.close()
    if refused:
        found.append(finding("DLP-PY-STREAM-CUDA-REFUSED", "__dlpack__",
                             "stream values the standard defines for CUDA were refused: " +
                             "; ".join(refused) + ". A consumer that passes them gets no tensor"))
    return found, notes
