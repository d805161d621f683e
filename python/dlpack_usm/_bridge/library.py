"""Finds and loads libdlpack_usm, the tool's core with the C ABI of
include/dlpack_usm/bridge.h, and declares its functions for ctypes."""

import ctypes
import json
import os

from .errors import BridgeError, UnreadableTensor

ABI_VERSION = 14

_library = None


def _candidates():
    explicit = os.environ.get("DLPACK_USM_LIBRARY")
    if explicit:
        # A library named explicitly is the only one tried: silently taking
        # another would hide a wrong setting.
        return [explicit]
    # The package's folder (dlpack_usm/), one above this sub-package.
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    try:
        from .. import _location  # written by CMake next to each copy of the package
    except ImportError:
        _location = None
    if _location is not None:
        path = _location.LIBRARY
        found.append(os.path.normpath(os.path.join(here, path)) if _location.RELATIVE else path)
    # A copy of the library next to the package (a hand-made layout).
    found.append(os.path.join(here, "libdlpack_usm.so.1"))
    return found


# A void** the bridge writes through: a tensor, or its JSON answer, which
# comes back as a c_void_p, not a c_char_p, so that the pointer can be
# handed back to dlpack_usm_bridge_free.
_OUT = ctypes.POINTER(ctypes.c_void_p)
_INT, _U32, _U64, _TEXT, _POINTER = (ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64,
                                     ctypes.c_char_p, ctypes.c_void_p)
# (result type, argument types) of each function of bridge.h, by its name
# after "dlpack_usm_bridge_".
_SIGNATURES = {
    "abi_version": (_U32, []),
    "tool_version": (_TEXT, []),
    "inspect": (_INT, [_POINTER, _TEXT, _TEXT, _OUT]),
    "capture": (_INT, [_POINTER, _TEXT, _TEXT, _TEXT, _OUT]),
    "sycl_export": (_INT, [_TEXT, ctypes.c_int32, _TEXT, _POINTER, _U64, _OUT, _OUT]),
    "sycl_import": (_INT, [_POINTER, _TEXT, _OUT]),
    "cuda_pointer": (_INT, [_U64, _OUT]),
    "cuda_stream_create": (_INT, [ctypes.c_int32, ctypes.POINTER(ctypes.c_uint64), _OUT]),
    "cuda_stream_destroy": (_INT, [_U64, _OUT]),
    "read_memory": (_INT, [_POINTER, _U64, _POINTER]),
    "cuda_stream_read": (_INT, [ctypes.c_int32, _U64, _U64, _U64, _POINTER, _OUT]),
    "cuda_synchronize": (_INT, [ctypes.c_int32, _OUT]),
    "cuda_stream_device": (_INT, [_U64, _OUT]),
    "sycl_queue_read": (_INT, [_POINTER, _U64, _U64, _POINTER, _OUT]),
    "consumer_matrix": (_INT, [_OUT]),
    "consumer_offer": (_INT, [_TEXT, _OUT, _OUT]),
    "consumer_offer_state": (_INT, [_U64, _OUT]),
    "consumer_offer_release": (_INT, [_U64, _OUT]),
    "write_output": (_INT, [_TEXT, _TEXT, _U64, _TEXT, _OUT]),
    "rules": (_INT, [_OUT]),
    "consumer_verdict": (_INT, [_TEXT, _OUT]),
    "dlpack_names": (_INT, [_OUT]),
    "max_version": (_INT, [_TEXT, _TEXT, _OUT]),
    "run_summary": (_INT, [_TEXT, _OUT]),
    "python_steps": (_INT, [_OUT]),
    "exchange_api_table": (_INT, [_U64, _OUT]),
    "printable": (_INT, [_TEXT, _OUT]),
    "plugin_host": (_INT, [_TEXT, _OUT, _OUT]),
    "produce_request": (_INT, [_TEXT, _OUT, _OUT]),
    "free": (None, [_POINTER]),
}


def _declare(library):
    for name, (result, arguments) in _SIGNATURES.items():
        function = getattr(library, f"dlpack_usm_bridge_{name}")
        function.restype, function.argtypes = result, arguments


def _abi_version(loaded):
    """The bridge ABI version `loaded` reports; AttributeError when it has
    no such function (it is some other library)."""
    function = loaded.dlpack_usm_bridge_abi_version
    function.restype = ctypes.c_uint32
    function.argtypes = []
    return function()


def library():
    """The loaded bridge library; raises BridgeError naming every place tried."""
    global _library
    if _library is not None:
        return _library
    tried = []
    for path in _candidates():
        if not os.path.exists(path):
            tried.append(f"{path} (no such file)")
            continue
        try:
            loaded = ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
            continue
        try:
            version = _abi_version(loaded)
        except AttributeError as error:
            # Loadable, but another library: a setting of this machine.
            raise BridgeError(
                f"{path} is not libdlpack_usm: it lacks the bridge's entry points ({error})",
                "set DLPACK_USM_LIBRARY to libdlpack_usm.so.1 of a dlpack-usm build, or unset "
                "it", exit_code=3) from None
        if version != ABI_VERSION:
            raise BridgeError(
                f"{path} has bridge ABI version {version}, this package needs {ABI_VERSION}",
                "use the library built with this copy of the package, or set DLPACK_USM_LIBRARY",
                exit_code=3)
        _declare(loaded)
        _library = loaded
        return loaded
    raise BridgeError("libdlpack_usm was not found; tried: " + "; ".join(tried),
                      "build dlpack-usm (cmake --build build) and use build/python, or set "
                      "DLPACK_USM_LIBRARY to the library's path", exit_code=3)


def tool_version():
    return library().dlpack_usm_bridge_tool_version().decode()


def call_inspect(pointer, capsule_name, request, path=None):
    """Runs dlpack_usm_bridge_inspect (or _capture when `path` is given) and
    returns the parsed JSON answer; raises BridgeError on a refusal."""
    lib = library()
    result = ctypes.c_void_p()
    request_text = json.dumps(request).encode()
    if path is None:
        code = lib.dlpack_usm_bridge_inspect(pointer, capsule_name.encode(), request_text,
                                             ctypes.byref(result))
    else:
        code = lib.dlpack_usm_bridge_capture(pointer, capsule_name.encode(), request_text,
                                             os.fsencode(path), ctypes.byref(result))
    return read_answer(code, result)


def read_answer(code, result):
    """The JSON a bridge call answered in `result`, freed; raises BridgeError
    when `code` says it refused."""
    if not result.value:
        raise BridgeError("the bridge answered nothing (out of memory)", exit_code=4)
    try:
        answer = json.loads(ctypes.string_at(result.value).decode())
    finally:
        library().dlpack_usm_bridge_free(result)
    if code != 0 and "unreadable" in answer:
        raise UnreadableTensor(answer["error"], answer.get("hint", ""), answer["unreadable"])
    if code != 0:
        raise BridgeError(answer.get("error", "the bridge refused"), answer.get("hint", ""),
                          exit_code=code)
    return answer


def rules_catalog():
    """The tool's whole rule catalog, as `dlpack-usm rules --json` prints it."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_rules(ctypes.byref(result)), result)


def exchange_api_table(address):
    """The DLPackExchangeAPI table at `address`, read page-guarded (bridge.h,
    dlpack_usm_bridge_exchange_api_table): its header and slot addresses."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_exchange_api_table(address,
                                                                       ctypes.byref(result)),
                       result)


def python_steps():
    """The steps of a Python producer's check, in order (bridge.h,
    dlpack_usm_bridge_python_steps): [{"name", "asked", "escape_rule"}]."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_python_steps(ctypes.byref(result)),
                       result)["steps"]


def dlpack_names():
    """DLPack's numbers by the names the bridge's answers use (device types,
    dtype codes, flags) and the newest DLPack the tool models: the core's
    own tables, so that the package keeps no copy of them."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_dlpack_names(ctypes.byref(result)), result)


def max_version(text, what):
    """`text` read as (MAJOR, MINOR) by the core's one reader of versions;
    BridgeError (usage) naming `what` and the part that is wrong."""
    result = ctypes.c_void_p()
    answer = read_answer(library().dlpack_usm_bridge_max_version(
        text.encode("utf-8", "surrogateescape"), what.encode(), ctypes.byref(result)), result)
    return answer["major"], answer["minor"]


def printable(text):
    """`text` from outside the tool made safe to print on one line, by the
    core's one escaping (control characters, bidirectional overrides,
    GitHub's workflow commands)."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_printable(
        str(text).encode("utf-8", "surrogateescape"), ctypes.byref(result)), result)["text"]


def json_bytes(value):
    """`value` as JSON in UTF-8 for the library, whose parser takes no lone
    surrogate: one in a library's text (an exception's message made of
    undecodable bytes) becomes U+FFFD."""
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def consumer_verdict(observation):
    """The verdict on what a consumer did with one cell (bridge.h,
    dlpack_usm_bridge_consumer_verdict): the model `check --consumer` judges
    C libraries with, so that C and Python cannot disagree."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_consumer_verdict(json_bytes(observation),
                                                        ctypes.byref(result))
    return read_answer(code, result)


def run_summary(request):
    """The end of `check`'s summary for cases run here (bridge.h,
    dlpack_usm_bridge_run_summary): the verdicts line, the failures grouped
    as the command line groups them, the gate line; {"text", "gate",
    "verdicts"}."""
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_run_summary(
        json.dumps(request).encode("utf-8", "surrogateescape"), ctypes.byref(result))
    return read_answer(code, result)


def write_output(path, text, option):
    """Writes `text` to `path` as the command line writes its reports
    (replaced atomically, or in place on a device or FIFO); BridgeError with
    exit 2 or 3 when it cannot."""
    data = text.encode("utf-8")
    result = ctypes.c_void_p()
    code = library().dlpack_usm_bridge_write_output(os.fsencode(path), data, len(data),
                                                    option.encode(), ctypes.byref(result))
    read_answer(code, result)


def read_memory(address, size):
    """The `size` bytes at `address` when all are readable memory of this
    process, else None: the bridge's page-guarded copy, so that no pointer a
    producer gave is ever dereferenced in the interpreter."""
    buffer = ctypes.create_string_buffer(size)
    if library().dlpack_usm_bridge_read_memory(address, size, buffer) != 0:
        return None
    return buffer.raw


def cuda_stream_read(ordinal, stream, address, size):
    """The `size` bytes at the CUDA address `address`, copied on `stream` of
    device `ordinal` (1: legacy default stream, 2: per-thread default
    stream) once the copy there finished: what a consumer working on that
    stream reads. BridgeError (exit 3) when the driver refuses."""
    buffer = ctypes.create_string_buffer(size)
    result = ctypes.c_void_p()
    read_answer(library().dlpack_usm_bridge_cuda_stream_read(
        ordinal, stream, address, size, buffer, ctypes.byref(result)), result)
    return buffer.raw


def cuda_synchronize(ordinal):
    """Waits until CUDA device `ordinal` is idle (every stream of the process)."""
    result = ctypes.c_void_p()
    read_answer(library().dlpack_usm_bridge_cuda_synchronize(ordinal, ctypes.byref(result)),
                result)


def cuda_stream_device(stream):
    """The ordinal of the CUDA device the CUstream `stream` belongs to."""
    result = ctypes.c_void_p()
    return read_answer(library().dlpack_usm_bridge_cuda_stream_device(
        stream, ctypes.byref(result)), result)["ordinal"]


def sycl_queue_read(queue_ref, address, size):
    """The `size` bytes of USM at `address`, copied by a command on the
    DPCTLSyclQueueRef `queue_ref` (dpctl.SyclQueue.addressof_ref()) once that
    copy finished."""
    buffer = ctypes.create_string_buffer(size)
    result = ctypes.c_void_p()
    read_answer(library().dlpack_usm_bridge_sycl_queue_read(
        queue_ref, address, size, buffer, ctypes.byref(result)), result)
    return buffer.raw
