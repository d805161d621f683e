"""Real consumers under the consumer matrix (`python3 -m dlpack_usm consume`):
numpy 2.x, array-api-strict (numpy underneath) and dpnp, on kDLCPU host
memory and on every USM kind of the root devices the bridge's runtime sees.
Each assertion is a behaviour of that consumer, found by running it and
explained where it stands; a change in a release shows up here by name. A
decline is never a failure; what fails is harm, a real defect of the
library, named by its rule."""

import pytest

from conftest import numpy_declines_with, require

np = require("numpy")

import engine_runs  # noqa: E402
from dlpack_usm.consumer import _case  # noqa: E402

FLOAT8_AND_SMALLER = ["float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn",
                      "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
                      "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]


def usm_device(found):
    """The first USM root device of the run, or skip (no USM runtime here)."""
    usm = [name for name in found.devices() if name != "cpu" and not name.startswith("cuda")]
    if not usm:
        from optional_module import required
        if required():
            pytest.fail("the bridge's runtime sees no USM device (USM is required here)")
        pytest.skip("no USM device: scripts/setup.sh installs Intel's CPU OpenCL runtime")
    return usm[0]


def outcome(found, case):
    return found.case(case)["outcome"]


def consume(expr, tmp_path_factory):
    """The run of `python -m dlpack_usm consume EXPR` over the whole matrix."""
    return engine_runs.run("consume", expr, tmp_path=tmp_path_factory.mktemp("consume"))


@pytest.fixture(scope="module")
def numpy_found(tmp_path_factory):
    return consume("numpy.from_dlpack", tmp_path_factory)


@pytest.fixture(scope="module")
def strict_found(tmp_path_factory):
    require("array_api_strict")
    return consume("array_api_strict.from_dlpack", tmp_path_factory)


# numpy 2.x ---------------------------------------------------------------

def test_numpy_asks_for_dlpack_1_0_with_every_keyword(numpy_found):
    # numpy.from_dlpack calls __dlpack__(stream=None, max_version=(1, 0),
    # dl_device=None, copy=None): it reads DLPack 1.0, no later minor.
    assert numpy_found.case("consumer/cpu/cpu/c-order")["calls"] == [
        {"method": "__dlpack__", "stream": None, "max_version": [1, 0], "dl_device": None,
         "copy": None}]


def test_numpy_takes_host_memory_in_every_layout(numpy_found):
    # numpy honours strides, byte_offset, negative and zero strides, size-0
    # and ndim up to 64 (NPY_MAXDIMS since 2.0), so ndim 40 too.
    for cell in ("c-order", "f-order", "strided", "byte-offset", "negative-stride",
                 "extent-1-strides", "broadcast", "broadcast-all", "size0-strides",
                 "size0-zero-strides", "size0-null-data", "scalar-byte-offset",
                 "legacy-byte-offset", "strides-null-1.1", "ndim-0", "ndim-8", "ndim-40",
                 "is-copied"):
        case = "consumer/cpu/cpu/" + cell
        assert outcome(numpy_found, case) == "accepted", numpy_found.case(case)


def test_numpy_shares_the_memory_until_its_array_dies(numpy_found):
    # Zero copy: the deleter has not run while numpy's array lives, and runs
    # once when it is collected.
    case = numpy_found.case("consumer/cpu/cpu/c-order")
    assert case["deleter_calls_before_result_died"] == [0] and case["deleter_calls"] == [1]


def test_numpy_takes_legacy_capsules(numpy_found):
    # A producer that only knows legacy DLPack answers max_version=(1, 0)
    # with a "dltensor" capsule; numpy takes it and renames it.
    case = numpy_found.case("consumer/cpu/cpu/legacy")
    assert case["outcome"] == "accepted"
    assert case["capsule_names_after"] == ["used_dltensor"]


def test_numpy_marks_read_only_tensors_read_only(numpy_found):
    # numpy makes the array of a READ_ONLY tensor non-writeable, so its own
    # re-export carries READ_ONLY again.
    case = numpy_found.case("consumer/cpu/cpu/read-only")
    assert case["outcome"] == "accepted" and case["result"]["read_only"] is True


def test_numpy_dtypes(numpy_found):
    # bool, the ints, float16/32/64 and complex are numpy dtypes; bfloat16
    # is not, and numpy declines it with RuntimeError("Unsupported dtype in
    # DLTensor.") up to 2.4, BufferError from 2.5: a decline either way (no
    # sentence names the exception for a dtype), with an info for the first.
    for dtype in ("bool", "int8", "uint64", "float16", "float64", "complex128"):
        assert outcome(numpy_found, f"consumer/cpu/cpu/dtype-{dtype}") == "accepted"
    bfloat16 = numpy_found.case("consumer/cpu/cpu/dtype-bfloat16")
    assert (bfloat16["outcome"], bfloat16["status"]) == ("declined", "not_supported")
    raised = numpy_declines_with()
    assert bfloat16["raised"] == {"type": raised, "message": "Unsupported dtype in DLTensor."}
    assert [item["rule_id"] for item in bfloat16["findings"]] == \
        (["DLP-PY-DECLINE-EXCEPTION"] if raised == "RuntimeError" else [])
    # The float8/6/4 codes came with DLPack 1.1; numpy asks for 1.0, so the
    # producer cannot give them (BufferError): declined, as not supported.
    for dtype in FLOAT8_AND_SMALLER:
        case = numpy_found.case(f"consumer/cpu/cpu/dtype-{dtype}")
        assert (case["outcome"], case["status"]) == ("declined", "not_supported"), case


def test_numpy_versions(numpy_found):
    # DLPack 1.1 and 1.2 are above numpy's max_version (1, 0): declined.
    for version in ("1.1", "1.2"):
        assert numpy_found.case(f"consumer/cpu/cpu/version-{version}")["status"] == \
            "not_supported"
    assert outcome(numpy_found, "consumer/cpu/cpu/version-1.0") == "accepted"


def test_numpy_refuses_a_major_version_it_does_not_know(numpy_found):
    # "the exported DLPack major version is too high": BufferError, and the
    # deleter still runs once (through the capsule).
    case = numpy_found.case("consumer/cpu/invalid/major-version-2")
    assert (case["outcome"], case["status"]) == ("refused", "pass")
    assert case["raised"]["type"] == "BufferError" and case["deleter_calls"] == [1]


def test_numpy_on_invalid_host_tensors(numpy_found):
    # numpy checks extents (ValueError for a negative one and for a byte
    # count past what it can hold) and the device type, but takes NULL data
    # with 15 elements: an array over address 0, the DLP-DATA-NULL tensor
    # (a warning: nothing requires a consumer to validate).
    refused = {"extent-overflow": "ValueError", "shape-negative": "ValueError",
               "device-type-unknown": numpy_declines_with()}
    for cell, error in refused.items():
        case = numpy_found.case(f"consumer/cpu/invalid/{cell}")
        assert (case["outcome"], case["status"]) == ("refused", "pass"), case
        assert case["raised"]["type"] == error and case["deleter_calls"] == [1], case
    case = numpy_found.case("consumer/cpu/invalid/data-null")
    assert (case["outcome"], case["status"]) == ("accepted-invalid", "warn"), case


def test_numpy_declines_usm(numpy_found):
    # numpy reads host memory only. For a kDLOneAPI tensor it raises
    # RuntimeError("Unsupported device in DLTensor.") on every USM kind up to
    # 2.4: a decline, with a warning, since the DLPack Python specification
    # recommends BufferError (TypeError before) for a device the consumer
    # does not support; from 2.5 it raises BufferError, a clean decline. The
    # capsule is not renamed and its destructor calls the deleter.
    device = usm_device(numpy_found)
    raised = numpy_declines_with()
    warned = raised == "RuntimeError"
    for kind in ("host", "device", "shared"):
        case = numpy_found.case(f"consumer/{device}/{kind}/c-order")
        assert (case["outcome"], case["status"]) == \
            ("declined", "warn" if warned else "not_supported"), case
        assert [item["rule_id"] for item in case["findings"]] == \
            (["DLP-PY-DECLINE-DEVICE-EXCEPTION"] if warned else [])
        assert case["raised"] == {"type": raised, "message": "Unsupported device in DLTensor."}
        assert case["deleter_calls"] == [1]


def test_numpy_fails_nothing_on_the_ci_machine(numpy_found):
    # numpy 2.4 declines what it cannot read and reads what it takes right:
    # no case of the matrix fails.
    assert numpy_found.passed, [result["id"] for result in numpy_found.failed]
    assert numpy_found.result.returncode == 0, numpy_found.result.stdout


def test_numpy_cases_have_their_place_in_the_matrix(numpy_found):
    # Every case of the matrix says where it sits: direction, memory, axis
    # and value, as fields (the report matrix reads them, never the id).
    case = numpy_found.case("consumer/cpu/cpu/c-order")
    assert case["place"] == {"direction": "consumer", "memory": "cpu",
                             "lines": [{"axis": "memory", "value": "cpu"}], "off_line": None}
    axes = {line["axis"] for result in numpy_found.results for line in result["place"]["lines"]}
    # (stream: the handshake of a CUDA device's memory, where there is one.)
    assert axes <= {"dtype", "layout", "usm-kind", "version", "invalid", "memory", "copy",
                    "stream"}


# array-api-strict ------------------------------------------------------------

def test_array_api_strict_is_numpy_without_float16(strict_found, numpy_found):
    # array-api-strict wraps numpy.from_dlpack, so it takes what numpy takes,
    # except float16, which is no array API dtype: TypeError "The
    # array_api_strict namespace does not support the dtype 'float16'".
    case = strict_found.case("consumer/cpu/cpu/dtype-float16")
    assert case["outcome"] == "declined" and case["raised"]["type"] == "TypeError"
    assert "float16" in case["raised"]["message"]
    for result in strict_found.results:
        short = result["id"].split("/", 1)[1]
        if short != "consumer/cpu/cpu/dtype-float16":
            assert result["outcome"] == outcome(numpy_found, short), result["id"]


def test_array_api_strict_reads_host_memory_only(strict_found):
    device = usm_device(strict_found)
    case = strict_found.case(f"consumer/{device}/device/c-order")
    assert case["raised"]["message"] == "Unsupported device in DLTensor."


# dpnp ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def dpnp_found(tmp_path_factory):
    require("dpnp")
    return consume("dpnp.from_dlpack", tmp_path_factory)


def test_dpnp_takes_every_usm_kind(dpnp_found):
    # dpnp imports kDLOneAPI tensors of SYCL's default context zero-copy, on
    # host, device and shared USM alike (explicit strides; see below for
    # NULL strides). The matrix offers dtypes and layouts on device USM; the
    # other kinds are offered here with the same cell.
    dpnp = require("dpnp")
    device = usm_device(dpnp_found)
    assert outcome(dpnp_found, f"consumer/{device}/device/dtype-float32") == "accepted"
    device_id = dpnp_found.case(f"consumer/{device}/device/dtype-float32")["offers"][0]["device"][1]
    for kind in ("host", "shared"):
        # Offered here, in this process: dpnp takes the cell on every kind.
        spec = {"cell": _case.matrix_cell("dtype-float32"), "memory": kind,
                "device_id": device_id, "features": []}
        result = _case.run_case(dpnp.from_dlpack, spec)
        assert result["outcome"] == "accepted", result
        assert result["result"]["device"][0] == 14  # still kDLOneAPI: no copy


def test_dpnp_crashes_on_null_strides_in_usm(dpnp_found):
    # dpnp.from_dlpack asks for max_version (1, 0), so the version cells
    # (legacy, 1.0, and c-order negotiated down to 1.0) come with NULL
    # strides, which DLPack allows before 1.2 for compact tensors. On
    # kDLOneAPI memory dpnp dereferences them: SIGSEGV, on every USM kind.
    device = usm_device(dpnp_found)
    for kind in ("host", "device", "shared"):
        for cell in ("legacy", "version-1.0", "c-order"):
            case = dpnp_found.case(f"consumer/{device}/{kind}/{cell}")
            assert case["outcome"] == "crash" and "Segmentation fault" in case["message"], case
    assert outcome(dpnp_found, f"consumer/{device}/device/strides-null-1.1") == "crash"
    # On host memory it reads NULL strides right (see below).
    assert outcome(dpnp_found, "consumer/cpu/cpu/c-order") == "accepted"


def test_dpnp_ignores_byte_offset_of_host_tensors(dpnp_found):
    # For a kDLCPU tensor dpnp returns a numpy.ndarray over the producer's
    # memory (zero copy: the deleter runs when it dies), built from `data`
    # without byte_offset: every view with an offset gives wrong elements.
    host = dpnp_found.case("consumer/cpu/cpu/c-order")
    assert host["result"]["device"] == [1, 0]
    assert host["deleter_calls_before_result_died"] == [0] and host["deleter_calls"] == [1]
    for cell in ("byte-offset", "negative-stride", "scalar-byte-offset", "legacy-byte-offset"):
        case = dpnp_found.case(f"consumer/cpu/cpu/{cell}")
        assert case["outcome"] == "wrong", case
        assert [item["rule_id"] for item in case["findings"]] == ["DLP-CONSUMER-CHECKSUM"]
    device = usm_device(dpnp_found)
    # In USM, byte_offset is honoured.
    assert outcome(dpnp_found, f"consumer/{device}/device/byte-offset") == "accepted"


def test_dpnp_declines_size0_null_data_but_takes_its_twin(dpnp_found):
    # A size-0 tensor with data == NULL (what the header recommends) makes
    # dpnp's USM import raise TypeError from a constructor, while the same
    # empty tensor with a non-NULL pointer is taken: an inconsistent decline.
    device = usm_device(dpnp_found)
    case = dpnp_found.case(f"consumer/{device}/device/size0-null-data")
    assert (case["outcome"], case["status"]) == ("declined", "warn"), case
    assert case["raised"]["type"] == "TypeError"
    assert case["observation"]["twin"] == {"cell": "size0-null-data~compact", "accepted": True}
    assert [item["rule_id"] for item in case["findings"]] == \
        ["DLP-PY-DECLINE-EXCEPTION", "DLP-CONSUMER-INCONSISTENT-DECLINE"]


def test_dpnp_declines_bfloat16_and_refuses_the_invalid_tensors(dpnp_found):
    device = usm_device(dpnp_found)
    # "Can not import DLPack tensor with type code 4": a clean BufferError.
    case = dpnp_found.case(f"consumer/{device}/device/dtype-bfloat16")
    assert (case["outcome"], case["status"]) == ("declined", "not_supported")
    # A pointer of another context, a host pointer, major version 2: all
    # refused with BufferError, the deleter called once.
    for cell in ("separate-context", "unknown-pointer", "major-version-2"):
        case = dpnp_found.case(f"consumer/{device}/invalid/{cell}")
        if case["outcome"] == "not-applicable":
            continue  # a runtime whose default context knows every context's pointers
        assert case["outcome"] == "refused" and case["status"] == "pass", case
        assert case["deleter_calls"] == [1]


def test_dpnp_keeps_read_only(dpnp_found):
    device = usm_device(dpnp_found)
    case = dpnp_found.case(f"consumer/{device}/device/read-only")
    assert case["outcome"] == "accepted" and case["result"]["read_only"] is True
