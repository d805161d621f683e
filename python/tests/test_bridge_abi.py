"""The C ABI of include/dlpack_usm/bridge.h called directly: refusals come
back as exit codes with a JSON error, never as a crash, and a caller's
runtime facts pass through the capsule-file parser."""

import ctypes
import json

import pytest

from conftest import require

np = require("numpy")

from dlpack_usm._bridge import capsules, dlpack, library  # noqa: E402
from dlpack_usm._bridge.errors import BridgeError  # noqa: E402


def call(pointer, name, request):
    lib = library.library()
    result = ctypes.c_void_p()
    code = lib.dlpack_usm_bridge_inspect(pointer, name, request, ctypes.byref(result))
    answer = json.loads(ctypes.string_at(result.value).decode())
    lib.dlpack_usm_bridge_free(result)
    return code, answer


@pytest.fixture()
def versioned():
    capsule = np.arange(6.0).__dlpack__(max_version=(1, 0))
    yield capsules.capsule_pointer(capsule, "dltensor_versioned")
    del capsule


def test_the_abi_version_is_14():
    # 14 added the plugin host and produce request (a C plugin's crash snippet).
    assert library.library().dlpack_usm_bridge_abi_version() == library.ABI_VERSION == 14


class HostHead(ctypes.Structure):
    # The first fields of plugin.h's DlpackUsmHost.
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32),
                ("tool_version", ctypes.c_char_p), ("root_device_count", ctypes.c_int32)]


def call_out(function, text):
    """(exit code, the pointer written, the JSON answer) of a bridge call
    that writes one pointer and an answer."""
    lib = library.library()
    out, result = ctypes.c_void_p(), ctypes.c_void_p()
    code = function(text, ctypes.byref(out), ctypes.byref(result))
    answer = json.loads(ctypes.string_at(result.value).decode())
    lib.dlpack_usm_bridge_free(result)
    return code, out.value, answer


def test_the_plugin_host_and_a_produce_request_are_what_check_hands_a_plugin():
    # ABI 14, for a C plugin's crash snippet. "auto" is the runtime this
    # process's offers use already, so the other tests' offers stay as
    # they are.
    lib = library.library()
    code, host, answer = call_out(lib.dlpack_usm_bridge_plugin_host, b"auto")
    assert code == 0 and host and answer["runtime"] in ("opencl", "sycl"), answer
    head = HostHead.from_address(host)
    assert head.abi_version == 4 and head.tool_version == library.tool_version().encode()
    again = call_out(lib.dlpack_usm_bridge_plugin_host, b"auto")
    assert again[:2] == (0, host)
    code, _, answer = call_out(lib.dlpack_usm_bridge_plugin_host, b"no-such-runtime")
    assert code == 2 and "made on 'auto' already" in answer["error"], answer
    if head.root_device_count == 0:
        pytest.skip("no OpenCL or SYCL device here to ask a produce request of")
    request = {"device_id": 0, "memory": "device", "dtype": "float32", "layout": "F",
               "version": "1.3", "read_only": False}
    code, made, answer = call_out(lib.dlpack_usm_bridge_produce_request,
                                  json.dumps(request).encode())
    assert code == 0 and made, answer
    assert answer == {"shape": [3, 5], "strides": [1, 3], "byte_offset": 0,
                      "allocation_bytes": 60}
    code, made, answer = call_out(lib.dlpack_usm_bridge_produce_request,
                                  json.dumps({**request, "dtype": "float7"}).encode())
    assert code == 2 and made is None and "'float7', not one of" in answer["error"], answer
    code, made, answer = call_out(lib.dlpack_usm_bridge_produce_request,
                                  json.dumps({**request, "device_id": "0"}).encode())
    assert code == 2 and "no integer" in answer["error"], answer


def test_printable_escapes_what_a_terminal_or_the_ci_would_act_on():
    assert library.printable("plain text") == "plain text"
    escaped = library.printable("a\x1b[31mred\u202e ##[add-mask]x\n")
    assert "\x1b" not in escaped and "\u202e" not in escaped and "\n" not in escaped
    assert "##[" not in escaped


def test_stream_reads_refuse_what_they_cannot_do():
    lib = library.library()
    result = ctypes.c_void_p()
    # No queue: a usage error, answered, never a crash.
    code = lib.dlpack_usm_bridge_sycl_queue_read(None, 0, 4, None, ctypes.byref(result))
    answer = json.loads(ctypes.string_at(result.value).decode())
    lib.dlpack_usm_bridge_free(result)
    assert code == 2 and "needs a queue" in answer["error"]
    # A driver that is not there: an environment error naming it.
    with pytest.raises(BridgeError) as raised:
        library.read_answer(lib.dlpack_usm_bridge_cuda_synchronize(-1, ctypes.byref(result)),
                            result)
    assert raised.value.exit_code in (2, 3)


def test_the_dlpack_names_are_the_cores_tables():
    names = library.dlpack_names()
    assert names["model_version"] == "1.3"
    assert names["device_types"]["kDLCPU"] == 1
    assert names["device_types"]["kDLOneAPI"] == 14
    assert names["device_types"]["kDLTrn"] == 18
    # dlpack.h 1.3 numbers the dtype codes 0 to 17, in this order.
    codes = names["dtype_codes"]
    assert list(codes.values()) == list(range(19))
    assert list(codes)[:3] == ["kDLInt", "kDLUInt", "kDLFloat"]
    assert codes["kDLFloat4_e2m1fn"] == 17
    assert names["flags"] == {"READ_ONLY": 1, "IS_COPIED": 2, "IS_SUBBYTE_TYPE_PADDED": 4}


def test_the_package_defaults_to_the_version_the_core_models():
    assert "%d.%d" % dlpack.NEWEST == library.dlpack_names()["model_version"]


def test_names_become_numbers_and_unknown_ones_stay_as_they_are():
    assert dlpack.device_type("kDLOneAPI") == 14
    assert dlpack.device_type(42) == 42  # how the bridge writes a type it does not know
    assert dlpack.dtype_code("kDLBool") == 6
    assert dlpack.dtype_code("kDLNothing") == "kDLNothing"
    assert dlpack.flag("IS_COPIED") == 2
    assert dlpack.on((3, 0), "kDLCPU", "kDLCUDAHost")
    assert not dlpack.on((14, 0), "kDLCPU") and not dlpack.on(None, "kDLCPU")


def test_a_tensor_is_described_by_names_the_tables_hold(versioned):
    _, answer = call(versioned, b"dltensor_versioned", None)
    tensor = answer["capsule"]["dl_tensor"]
    names = library.dlpack_names()
    assert tensor["device"]["device_type"] in names["device_types"]
    assert tensor["dtype"]["code"] in names["dtype_codes"]


def test_a_tensor_is_read(versioned):
    code, answer = call(versioned, b"dltensor_versioned", b'{"origin": "t"}')
    assert code == 0
    assert answer["capsule"]["dl_tensor"]["shape"] == [6]
    assert answer["capsule"]["origin"] == "t"


@pytest.mark.parametrize("name,request_text,words", [
    (b"used_dltensor_versioned", None, "names no DLPack tensor"),
    (b"dltensor_versioned", b"[1]", "not a JSON object"),
    (b"dltensor_versioned", b'{"origin": 3}', "origin"),
    (b"dltensor_versioned", b'{"colour": 1}', "unknown member"),
    (b"dltensor_versioned", b'{"runtime": {"usm_kind": "purple"}}', "usm_kind"),
])
def test_bad_arguments_are_usage_errors(versioned, name, request_text, words):
    code, answer = call(versioned, name, request_text)
    assert code == 2
    assert words in answer["error"]


def test_a_null_tensor_is_a_usage_error():
    code, answer = call(None, b"dltensor", None)
    assert code == 2 and "NULL tensor" in answer["error"]


def test_runtime_facts_reach_the_oneapi_rules(versioned):
    # On a kDLCPU tensor the oneAPI rules do not apply: the runtime section
    # is parsed and kept, and judged only where the device is kDLOneAPI.
    request = json.dumps({"runtime": {"usm_kind": "device", "root_device_count": 1}}).encode()
    code, answer = call(versioned, b"dltensor_versioned", request)
    assert code == 0
    assert answer["capsule"]["runtime"] == {"usm_kind": "device", "root_device_count": 1}


def test_max_version_is_read_by_the_cores_reader():
    # The same text the C++ --max-version accepts and refuses, with its words.
    assert library.max_version("1.3", "version") == (1, 3)
    assert library.max_version("0.8", "version") == (0, 8)
    for text, words in (("13", "is not MAJOR.MINOR"), ("1.x", "minor 'x' is not an integer"),
                        ("1.3.1", "minor '3.1' is not an integer"),
                        ("-1.0", "is out of range")):
        with pytest.raises(BridgeError) as refused:
            library.max_version(text, "version")
        assert refused.value.exit_code == 2
        assert words in refused.value.message, text
