"""__sycl_usm_array_interface__ (seed 002) field by field: an object whose
dictionary breaks one field is reported for that rule alone; a dictionary
that describes its DLPack tensor correctly, and dpnp's own, are not."""

import pytest

from conftest import judged_ids, require

np = require("numpy")

import dlpack_usm  # noqa: E402
from producers import Delegate, _api  # noqa: E402

CONTEXT_NAME = b"SyclContextRef"


def interface_of(array):
    """The dictionary dpctl would write for `array`: strides and offset in
    elements, the pointer of the first element of the allocation."""
    itemsize = array.itemsize
    return {
        "data": (array.ctypes.data, False),
        "shape": array.shape,
        "strides": tuple(stride // itemsize for stride in array.strides),
        "typestr": array.dtype.str,
        "typedescr": [("", array.dtype.str)],
        "version": 1,
        "offset": 0,
        "syclobj": "opencl:cpu:0",
    }


class WithInterface(Delegate):
    def __init__(self, **changes):
        super().__init__()
        self.interface = interface_of(self.array)
        for key, value in changes.items():
            if value is KeyError:
                del self.interface[key]
            else:
                self.interface[key] = value

    @property
    def __sycl_usm_array_interface__(self):
        return self.interface


class ContextCapsuleHolder:
    def __init__(self, name):
        self.name = name
        self.capsule = _api.PyCapsule_New(1, name, None)

    def _get_capsule(self):
        return self.capsule


def suai_ids(obj):
    return judged_ids([item for item in dlpack_usm.check(obj, consumer=None, stream_attempts=0)
                       if item.rule_id.startswith("DLP-PY-SUAI-")])


FIELD_BREAKS = {
    "shape-list": {"shape": [2, 3]},
    "typestr-missing": {"typestr": KeyError},
    "typedescr-not-list": {"typedescr": "f4"},
    "data-not-pair": {"data": 1234},
    "data-missing": {"data": KeyError},
    "strides-list": {"strides": [3, 1]},
    "offset-float": {"offset": 0.0},
    "version-missing": {"version": KeyError},
    "syclobj-missing": {"syclobj": KeyError},
}


@pytest.mark.parametrize("changes", FIELD_BREAKS.values(), ids=FIELD_BREAKS.keys())
def test_a_field_of_the_wrong_type_is_reported(changes):
    assert suai_ids(WithInterface(**changes)) == ["DLP-PY-SUAI-FIELD"]


@pytest.mark.parametrize("syclobj", [42, ContextCapsuleHolder(b"NotARef")],
                         ids=["int", "wrong-capsule"])
def test_a_syclobj_of_no_known_form_is_reported(syclobj):
    assert suai_ids(WithInterface(syclobj=syclobj)) == ["DLP-PY-SUAI-SYCLOBJ"]


DISAGREEMENTS = {
    "shape": {"shape": (3, 2)},
    "typestr": {"typestr": "<i4"},
    "offset": {"offset": 1},
    "strides-in-bytes": {"strides": (12, 4)},
}


@pytest.mark.parametrize("changes", DISAGREEMENTS.values(), ids=DISAGREEMENTS.keys())
def test_a_dictionary_that_disagrees_with_the_tensor_is_reported(changes):
    assert suai_ids(WithInterface(**changes)) == ["DLP-PY-SUAI-AGREES"]


@pytest.mark.parametrize("syclobj", ["opencl:cpu:0", ContextCapsuleHolder(CONTEXT_NAME)],
                         ids=["filter-string", "get-capsule"])
def test_a_correct_dictionary_is_not_reported(syclobj):
    assert suai_ids(WithInterface(syclobj=syclobj)) == []


def test_dpnp_interfaces_are_valid(dpnp):
    base = dpnp.arange(24, dtype="f4").reshape(4, 6)
    for view in (base, base[1:, ::2], base[::-1, 2:], base.T, base[:0]):
        assert suai_ids(view) == []


def test_dpnp_exports_writable_0d_arrays_read_only(dpnp):
    # A defect of dpnp 0.20.0 that the rule finds: a writable 0-d array (its
    # flags and its __sycl_usm_array_interface__ say so) goes out through
    # DLPack with DLPACK_FLAG_BITMASK_READ_ONLY. Should dpnp fix it, this
    # test fails and the note on real producers is to be updated.
    scalar = dpnp.ones((), dtype="i8")
    assert scalar.get_array().flags.writable
    findings = [item for item in dlpack_usm.check(scalar, consumer=None, stream_attempts=0)
                if item.rule_id.startswith("DLP-PY-SUAI-")]
    assert [(item.rule_id, item.field) for item in findings] == \
        [("DLP-PY-SUAI-AGREES", "__sycl_usm_array_interface__['data']")]
    assert "READ_ONLY" in findings[0].message
