"""The CUDA stream rules of __dlpack__ and the CUDA facts' absence, on
producers that label host memory kDLCUDA (no GPU needed: what is judged is
what __dlpack__ accepts, and the driver is asked nothing it could answer
here). The live facts of real CUDA memory are test_cuda_live.py's."""

import json
import os
import subprocess
import sys

from conftest import require

require("numpy")

import dlpack_usm  # noqa: E402
from producers import DLDevice, OwnTensor  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
KDL_CUDA = 2


class CudaLabelled(OwnTensor):
    """A kDLCUDA tensor as far as the stream argument goes; `refused` are
    the stream values it raises ValueError for."""

    def __init__(self, refused=(0,)):
        super().__init__()
        self.tensor.dl_tensor.device = DLDevice(KDL_CUDA, 0)
        self.refused = refused

    def __dlpack__(self, stream=None, **kwargs):
        if stream in self.refused:
            raise ValueError(f"stream {stream} is not supported")
        return super().__dlpack__()

    def __dlpack_device__(self):
        return (KDL_CUDA, 0)


def stream_findings(obj):
    return {item.rule_id: item for item in dlpack_usm.check(obj, consumer=None)
            if item.rule_id.startswith("DLP-PY-STREAM-")}


def test_a_producer_that_takes_stream_0_is_reported():
    found = stream_findings(CudaLabelled(refused=()))
    assert sorted(found) == ["DLP-PY-STREAM-CUDA-ZERO"]
    assert found["DLP-PY-STREAM-CUDA-ZERO"].severity == "warning"


def test_a_producer_that_refuses_0_and_takes_the_defined_values_is_not():
    assert stream_findings(CudaLabelled(refused=(0,))) == {}


def test_a_refused_defined_value_is_information_naming_it():
    found = stream_findings(CudaLabelled(refused=(0, 2)))
    assert sorted(found) == ["DLP-PY-STREAM-CUDA-REFUSED"]
    refused = found["DLP-PY-STREAM-CUDA-REFUSED"]
    assert refused.severity == "info"
    assert "stream=2 raised ValueError" in refused.message
    assert "stream=1 " not in refused.message


def test_cpu_arrays_get_no_cuda_stream_checks():
    import numpy
    assert stream_findings(numpy.arange(4, dtype=numpy.float32)) == {}


def test_without_the_driver_a_cuda_tensor_is_checked_for_structure_and_says_why():
    # A driver that is not there, whatever this machine has: the bridge
    # opens the file DLPACK_USM_CUDA_DRIVER names once per process.
    script = (
        "import json, dlpack_usm, test_cuda_streams as t\n"
        "base, found = dlpack_usm.check_report(t.CudaLabelled(), consumer=None)\n"
        "print(json.dumps({'notes': base.notes, 'runtime': base.capsule.get('runtime'),\n"
        "                  'ids': sorted({f.rule_id for f in found})}))\n")
    env = dict(os.environ, DLPACK_USM_CUDA_DRIVER="/nonexistent/libcuda.so.1",
               PYTHONPATH=os.pathsep.join([HERE] + sys.path))
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, check=True)
    answer = json.loads(result.stdout)
    assert answer["runtime"] is None
    assert "DLP-CUDA-NO-RUNTIME" in answer["ids"]
    assert not any(rule.startswith("DLP-CUDA-") and rule != "DLP-CUDA-NO-RUNTIME"
                   for rule in answer["ids"])
    assert any("cannot open the CUDA driver /nonexistent/libcuda.so.1" in note
               for note in answer["notes"]), answer["notes"]
    assert any("stream=<a CUDA stream>) not tried" in note for note in answer["notes"])


class RefusesToExport(CudaLabelled):
    def __dlpack__(self, **kwargs):
        raise BufferError("this tensor's device is not current")


def test_a_producer_that_cannot_export_is_not_applicable_not_a_crash():
    try:
        dlpack_usm.check_report(RefusesToExport(), consumer=None)
    except dlpack_usm.NotApplicable as reason:
        assert "BufferError (this tensor's device is not current)" in reason.message
    else:
        raise AssertionError("a producer that exports nothing was judged")
