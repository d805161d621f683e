"""A round trip with a real SYCL library in one process: the tool's export
(on its SYCL runtime, in SYCL's default context) imported by
dpnp.from_dlpack with the right data, and dpnp's export imported by the
tool, on host, device and shared USM."""

import pytest

from dlpack_usm.consumer import _sycl_exchange

KINDS = ["host", "device", "shared"]


@pytest.mark.parametrize("usm_type", KINDS)
def test_dpnp_imports_the_tools_export(dpnp, np, usm_type):
    import dpctl

    values = np.arange(12, dtype=np.float32) * 0.5 - 2.0
    tensor = _sycl_exchange.ToolTensor(values, usm_type, device_id=0)
    assert tensor.info["usm_kind"] == usm_type
    imported = dpnp.from_dlpack(tensor)
    assert imported.usm_type == usm_type
    assert imported.sycl_device == dpctl.get_devices()[0]
    # Zero copy: dpnp views the tool's allocation.
    assert hex(imported.get_array().usm_data._pointer) == tensor.info["data"]
    np.testing.assert_array_equal(dpnp.asnumpy(imported), values)
    del imported  # dpnp calls the tool's deleter, which frees the allocation


@pytest.mark.parametrize("usm_type", KINDS)
def test_the_tool_imports_dpnps_export(dpnp, np, usm_type):
    import dpctl

    values = np.arange(10, dtype=np.int32) * 3 - 7
    array = dpnp.asarray(values, usm_type=usm_type, device=dpctl.get_devices()[0])
    answer = _sycl_exchange.import_into_tool(array)
    assert answer["device_id"] == 0
    assert answer["usm_kind"] == usm_type
    assert answer["bytes"] == values.tobytes()
    assert not [f for f in answer["findings"] if f["severity"] == "error"]
