"""__dlpack_c_exchange_api__ (DLPack 1.3): tables built here with ctypes,
correct and broken one way each. The correct table exports through a real
numpy capsule, which it consumes as an owner must."""

import ctypes

import pytest

from conftest import judged_ids, require

np = require("numpy")

import dlpack_usm  # noqa: E402
from dlpack_usm._bridge import capsules  # noqa: E402
from dlpack_usm.producer import _exchange_api  # noqa: E402
from producers import Delegate, DLPackExchangeAPI, _api, mark_used  # noqa: E402

API_NAME = b"dlpack_exchange_api"
CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)  # never called


def _from_py_object(source):
    """managed_tensor_from_py_object_no_sync exporting `source` (an array)."""

    @ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(ctypes.c_void_p))
    def export(obj, out):
        capsule = source(obj).__dlpack__(max_version=(1, 3))
        pointer = capsules.capsule_pointer(capsule, capsules.VERSIONED)
        mark_used(capsule, capsules.VERSIONED)  # the caller owns the tensor now
        out[0] = pointer
        return 0

    return export


def make_type(major=1, null=None, name=API_NAME, source=lambda obj: obj.array, on_type=True):
    unused = CALLBACK(lambda _: -1)
    export = _from_py_object(source)
    table = DLPackExchangeAPI()
    table.header.version.major = major
    table.header.version.minor = 3
    for field in _exchange_api.REQUIRED:
        setattr(table, field, ctypes.cast(unused, ctypes.c_void_p))
    table.managed_tensor_from_py_object_no_sync = ctypes.cast(export, ctypes.c_void_p)
    if null is not None:
        setattr(table, null, None)
    capsule = _api.PyCapsule_New(ctypes.addressof(table), name, None)
    keep = (table, unused, export, name)
    kind = type("WithExchangeApi", (Delegate,), {"_keep": keep})
    if on_type:
        kind.__dlpack_c_exchange_api__ = capsule
        return kind()
    instance = kind()
    instance.__dlpack_c_exchange_api__ = capsule
    return instance


def api_ids(obj):
    return judged_ids([item for item in dlpack_usm.check(obj, consumer=None)
                       if item.rule_id.startswith("DLP-PY-EXCHANGE-API-")])


def test_a_correct_table_is_not_reported():
    assert api_ids(make_type()) == []


def test_a_capsule_of_another_name_is_reported():
    assert api_ids(make_type(name=b"exchange_api")) == ["DLP-PY-EXCHANGE-API-CAPSULE"]


def test_a_table_on_the_instance_is_reported():
    assert api_ids(make_type(on_type=False)) == ["DLP-PY-EXCHANGE-API-CAPSULE"]


def test_an_unknown_major_version_is_reported():
    assert api_ids(make_type(major=2)) == ["DLP-PY-EXCHANGE-API-VERSION"]


@pytest.mark.parametrize("field", _exchange_api.REQUIRED)
def test_a_null_required_function_is_reported(field):
    expected = ["DLP-PY-EXCHANGE-API-NULL"]
    assert api_ids(make_type(null=field)) == expected


def test_a_null_optional_function_is_not_reported():
    assert api_ids(make_type(null="dltensor_from_py_object_no_sync")) == []


def test_a_table_that_exports_another_tensor_is_reported():
    other = np.zeros(3)
    assert api_ids(make_type(source=lambda obj: other)) == ["DLP-PY-EXCHANGE-API-TENSOR"]
