"""What the Python bridge does where SYCL or a consumer cannot go on: a dpnp
array on a sub-device (its own SYCL context, which dpctl refuses to export
from) is a clean "not applicable" (on the command line every step is not
supported, saying why), and a consumer probed on a tensor the
rules flagged runs in a child process, so that its crash is a note and not
the end of the interpreter."""

import ctypes

import pytest

import dlpack_usm
import engine_runs
from producers import OwnTensor


def flagged_tensor():
    """A CPU tensor with a negative extent: an error finding of the rules."""
    tensor = OwnTensor()
    tensor.shape[0] = -4
    return tensor


def crashing_consumer(obj):
    obj.__dlpack__()
    ctypes.string_at(0)  # SIGSEGV, as a consumer reading a wild pointer would


def consumer_that_does_not_rename(obj):
    return obj.__dlpack__()


def error_ids(findings):
    return {item.rule_id for item in findings if item.severity == "error"}


def test_a_crash_on_a_flagged_tensor_is_contained_and_noted():
    base, found = dlpack_usm.check_report(flagged_tensor(), consumer=crashing_consumer)
    assert error_ids(found), "the tensor must be flagged for the probe to be contained"
    assert len(base.notes) == 1
    assert "crashed (SIGSEGV)" in base.notes[0]
    assert "child process" in base.notes[0]


def test_consumer_findings_come_back_from_the_child():
    base, found = dlpack_usm.check_report(flagged_tensor(), consumer=consumer_that_does_not_rename)
    assert "DLP-PY-CONSUMER-RENAME" in error_ids(found)
    assert base.notes == []


def sub_device_array(dpnp):
    import dpctl

    root = dpctl.get_devices()[0]
    subs = root.create_sub_devices(partition=1)
    return dpnp.ones(4, sycl_queue=dpctl.SyclQueue(subs[0]))


def test_a_sub_device_array_refused_by_dpctl_is_not_applicable(dpnp):
    array = sub_device_array(dpnp)
    memory = array.get_array().usm_data
    if memory.sycl_context == memory.sycl_device.sycl_platform.default_context:
        # A backend (Level Zero) whose default context holds sub-devices:
        # dpctl exports, and the check judges the tensor.
        assert dlpack_usm.check(array, consumer=None) is not None
        return
    with pytest.raises(dlpack_usm.NotApplicable) as refused:
        dlpack_usm.check_report(array, consumer=None)
    assert "DLPackCreationError" in refused.value.message
    assert "DLP-ONEAPI-CONTEXT-NOT-DEFAULT" in refused.value.message
    assert "sub-device" in refused.value.message


def test_the_command_line_says_not_supported_and_nothing_was_exchanged(dpnp, tmp_path):
    memory = sub_device_array(dpnp).get_array().usm_data
    refused = memory.sycl_context != memory.sycl_device.sycl_platform.default_context
    expression = ("dpnp.ones(4, sycl_queue=dpctl.SyclQueue("
                  "dpctl.get_devices()[0].create_sub_devices(partition=1)[0]))")
    found = engine_runs.run("check", expression, "--no-consumer", tmp_path=tmp_path)
    # Every step declined: nothing was exchanged, and the run does not pass.
    assert found.result.returncode == (3 if refused else 0), \
        found.result.stdout + found.result.stderr
    statuses = {case["status"] for case in found.results}
    if not refused:
        # Level Zero: dpctl exports, and the capsule is judged.
        assert found.step("capsule")["status"] != "not_supported", found.results
        return
    # Every step is not supported here, saying why: dpctl's refusal.
    assert statuses == {"not_supported"}, found.results
    assert all("DLPackCreationError" in case["message"] and "sub-device" in case["message"]
               for case in found.results)
