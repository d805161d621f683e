"""Real producers over a matrix of dtypes and layouts: numpy 2.x,
array-api-strict and dpnp/dpctl (kDLOneAPI on Intel's CPU OpenCL runtime).
Conformant exports give no error finding, and the facts the bridge reads
are those the producer states itself: shape, strides, address, dtype, and
for kDLOneAPI the device_id by dpctl's device order and the USM kind by
dpctl's own query."""

import pytest

from conftest import error_ids, require

np = require("numpy")

import dlpack_usm  # noqa: E402

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
DLPACK_CODES = {"b": "kDLBool", "i": "kDLInt", "u": "kDLUInt", "f": "kDLFloat",
                "c": "kDLComplex"}


def layouts(base):
    """(name, view) of a 4x6 array: every layout a producer must describe."""
    return [
        ("C", base),
        ("F", base.T.copy().T if hasattr(base.T, "copy") else base.T),
        ("transposed", base.T),
        ("strided", base[:, ::2]),
        ("negative", base[::-1, :]),
        ("negative-both", base[::-1, ::-2]),
        ("offset", base[1:, 2:]),
        ("size-0", base[:0]),
        ("ndim-0", base[1, 2]),
        ("1-d", base[2]),
    ]


def expected_facts(array, itemsize):
    """What numpy-style metadata says DLPack must carry."""
    return {"shape": list(array.shape), "itemsize": itemsize,
            "strides": [stride // itemsize for stride in array.strides]}


def check_facts(inspection, shape, strides, kind, itemsize, address):
    tensor = inspection.capsule["dl_tensor"]
    assert (tensor["shape"] or []) == list(shape)
    assert tensor["dtype"]["code"] == DLPACK_CODES[kind]
    assert tensor["dtype"]["bits"] == itemsize * 8 and tensor["dtype"]["lanes"] == 1
    if any(extent == 0 for extent in shape):
        return  # strides and address of an empty array describe nothing
    if len(shape) > 0:
        assert tensor["strides"] == list(strides)
    if address is not None:
        assert int(tensor["data"], 16) + tensor["byte_offset"] == address


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_exports_break_no_rule(dtype):
    base = (np.arange(24) % 2).astype(dtype).reshape(4, 6)
    for name, view in layouts(base):
        view = np.asarray(view)
        base_report, findings = dlpack_usm.check_report(view)
        assert error_ids(findings) == [], (name, findings)
        check_facts(base_report, view.shape, [s // view.itemsize for s in view.strides],
                    view.dtype.kind, view.itemsize, view.ctypes.data)
        assert base_report.capsule["dl_tensor"]["device"] == {"device_type": "kDLCPU",
                                                              "device_id": 0}


def test_numpy_legacy_capsules_are_read_too():
    inspection = dlpack_usm.inspect(np.arange(6.0).reshape(2, 3), max_version=None)
    assert inspection.capsule_name == "dltensor"
    assert "version" not in inspection.capsule
    assert error_ids(inspection.findings) == []


def test_numpy_read_only_arrays_carry_the_flag():
    array = np.arange(6.0)
    array.flags.writeable = False
    inspection = dlpack_usm.inspect(array)
    assert "READ_ONLY" in inspection.capsule["flags"]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint32", "float32", "float64",
                                   "complex128"])
def test_array_api_strict_exports_break_no_rule(dtype):
    xp = require("array_api_strict")
    base = xp.reshape(xp.astype(xp.arange(24) % 2, getattr(xp, dtype)), (4, 6))
    for name, view in [("C", base), ("transposed", base.T), ("strided", base[:, ::2]),
                       ("offset", base[1:, 2:]), ("size-0", base[:0, :]), ("ndim-0", base[1, 2])]:
        report, findings = dlpack_usm.check_report(view)
        assert error_ids(findings) == [], (name, findings)
        reference = np.from_dlpack(view)
        check_facts(report, reference.shape, [s // reference.itemsize for s in reference.strides],
                    reference.dtype.kind, reference.itemsize, reference.ctypes.data)


DPNP_DTYPES = ["bool", "int8", "int32", "int64", "uint16", "float32", "float64", "complex64",
               "complex128"]


def dpnp_layouts(base):
    return [(name, view) for name, view in layouts(base) if name not in ("F", "ndim-0")] + \
        [("F", base.T.copy().T)]


@pytest.mark.parametrize("usm_type", ["device", "shared", "host"])
@pytest.mark.parametrize("dtype", DPNP_DTYPES)
def test_dpnp_exports_break_no_rule(dpnp, dtype, usm_type):
    import dpctl
    base = (dpnp.arange(24, usm_type=usm_type) % 2).astype(dtype).reshape(4, 6)
    roots = list(dpctl.get_devices())
    for name, view in dpnp_layouts(base):
        report, findings = dlpack_usm.check_report(view, stream_attempts=0)
        assert error_ids(findings) == [], (name, findings)
        array = view.get_array()
        itemsize = array.itemsize
        check_facts(report, array.shape, list(array.strides), np.dtype(dtype).kind, itemsize,
                    None)
        tensor = report.capsule["dl_tensor"]
        # device_id by dpctl's own device order, the USM kind by its own query.
        assert tensor["device"] == {"device_type": "kDLOneAPI",
                                    "device_id": roots.index(array.sycl_device)}
        runtime = report.capsule["runtime"]
        assert runtime["usm_kind"] == usm_type == array.usm_type
        if usm_type == "host":
            assert "owner_root_index" not in runtime  # host USM belongs to no device
        else:
            assert runtime["owner_root_index"] == roots.index(array.sycl_device)
        assert runtime["root_device_count"] == len(roots)
        assert runtime["default_context"] is True
        suai = view.__sycl_usm_array_interface__
        if all(array.shape):
            assert int(tensor["data"], 16) + tensor["byte_offset"] == \
                suai["data"][0] + suai["offset"] * itemsize


def test_dpnp_host_and_shared_usm_is_what_ipex_would_refuse(dpnp):
    # DLP-ONEAPI-USM-NOT-DEVICE (info) on host/shared USM, none on device USM.
    for usm_type, expected in (("device", False), ("shared", True), ("host", True)):
        findings = dlpack_usm.check(dpnp.ones(4, usm_type=usm_type), consumer=None,
                                    stream_attempts=0)
        warned = any(item.rule_id == "DLP-ONEAPI-USM-NOT-DEVICE" for item in findings)
        assert warned == expected, (usm_type, findings)


def test_dpnp_as_consumer_renames_what_it_consumed(dpnp):
    findings = dlpack_usm.check(dpnp.arange(6), consumer=dpnp.from_dlpack, stream_attempts=0)
    assert not [item for item in findings if item.rule_id.startswith("DLP-PY-CONSUMER-")]


def test_the_tool_numbers_devices_as_dpctl_does(dpnp):
    # kDLOneAPI device_id is the position in sycl::device::get_devices():
    # the tool's OpenCL enumeration must give dpctl's order here (no Level
    # Zero device), root device by root device.
    import json
    import os
    import subprocess
    import dpctl
    binary = os.environ.get("DLPACK_USM_BINARY")
    if not binary:
        pytest.skip("DLPACK_USM_BINARY is not set (ctest sets it)")
    listed = json.loads(subprocess.run([binary, "list-devices", "--json"], capture_output=True,
                                       text=True, timeout=120, check=True).stdout)
    tool = {device["dlpack_device_id"]: (device["name"], platform["name"])
            for platform in listed["platforms"] for device in platform["devices"]
            if device["sub_device_index"] is None}
    sycl = {index: (device.name, device.sycl_platform.name)
            for index, device in enumerate(dpctl.get_devices())}
    assert tool == sycl
