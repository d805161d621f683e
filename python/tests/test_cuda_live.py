"""CUDA facts of live tensors on a machine with an NVIDIA driver and GPU:
torch, cupy and jax tensors (device, pinned host and managed memory, views
with offsets) give no CUDA finding, and each broken producer of
cuda_producers.py is caught by its rule alone. Skipped, with the reason,
where cupy or a CUDA device is missing (every CI machine without a GPU);
the rules themselves are tested on capsule files there."""

import os

import pytest

from conftest import require

# A GPU and cupy are this machine's hardware, not CI's peers: a skip here,
# whatever DLPACK_USM_REQUIRE_PEERS says.
cupy = pytest.importorskip("cupy", reason="live CUDA facts need cupy and a CUDA device")
try:
    DEVICES = cupy.cuda.runtime.getDeviceCount()
except Exception as error:  # no driver or no device: CUDARuntimeError
    pytest.skip(f"cupy sees no CUDA device ({error})", allow_module_level=True)
if DEVICES == 0:
    pytest.skip("cupy sees no CUDA device", allow_module_level=True)

import dlpack_usm  # noqa: E402
from cuda_producers import KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED, DriverTensor  # noqa: E402


def tensor_problems(obj):
    """Warnings and errors of the tensor rules (the Python protocol rules
    judge the producer's keywords, which these tests are not about)."""
    found = dlpack_usm.check(obj, consumer=None, stream_attempts=0)
    return sorted({item.rule_id for item in found
                   if item.severity != "info" and not item.rule_id.startswith("DLP-PY-")})


def runtime_of(obj):
    return dlpack_usm.inspect(obj).capsule.get("runtime")


def test_correct_producers_of_each_memory_type_pass():
    for memory, device_type in (("device", KDL_CUDA), ("host", KDL_CUDA_HOST),
                                ("managed", KDL_CUDA_MANAGED)):
        tensor = DriverTensor(memory)
        runtime = runtime_of(tensor)
        assert runtime["cuda_memory_type"] == memory
        assert runtime["alloc_size"] >= 4096
        assert tensor_problems(tensor) == [], memory
        assert tensor.device_type == device_type


def test_a_view_with_an_offset_inside_its_allocation_passes():
    assert tensor_problems(DriverTensor("device", offset=100)) == []


BROKEN = [
    ("DLP-CUDA-DEVICE-ID-RANGE", lambda: DriverTensor("device", device_id=DEVICES)),
    ("DLP-CUDA-DEVICE-MEMORY-TYPE", lambda: DriverTensor("host", device_type=KDL_CUDA)),
    ("DLP-CUDA-DEVICE-MEMORY-TYPE", lambda: DriverTensor("managed", device_type=KDL_CUDA)),
    ("DLP-CUDA-HOST-MEMORY-TYPE", lambda: DriverTensor("device", device_type=KDL_CUDA_HOST)),
    ("DLP-CUDA-MANAGED-MEMORY-TYPE",
     lambda: DriverTensor("device", device_type=KDL_CUDA_MANAGED)),
    ("DLP-EXTENT-OUTSIDE-ALLOCATION", lambda: DriverTensor("device", claimed=1 << 24)),
    ("DLP-DEVICE-ID-HOST-NONZERO",
     lambda: DriverTensor("managed", device_id=1)),
]


@pytest.mark.parametrize("rule_id,make", BROKEN, ids=[f"{rule}-{i}" for i, (rule, _) in
                                                       enumerate(BROKEN)])
def test_a_broken_producer_is_caught_by_its_rule_alone(rule_id, make):
    assert tensor_problems(make()) == [rule_id]


@pytest.mark.skipif(DEVICES < 2, reason="needs two CUDA devices")
def test_device_id_of_the_other_gpu_is_caught():
    assert tensor_problems(DriverTensor("device", ordinal=1)) == []
    assert tensor_problems(DriverTensor("device", ordinal=1, device_id=0)) == \
        ["DLP-CUDA-DEVICE-ID"]


@pytest.mark.skipif(DEVICES < 2, reason="needs two CUDA devices")
def test_tensors_of_the_second_gpu_pass():
    # torch exports a CUDA tensor only while its device is torch's current
    # device (BufferError otherwise): a consumer makes it current.
    torch = require("torch")
    tensor = torch.arange(4096., device="cuda:1").reshape(64, 64)[5:, 7:]
    with torch.cuda.device(1):
        assert tensor_problems(tensor) == []
        assert runtime_of(tensor)["cuda_ordinal"] == 1
    with torch.cuda.device(0):
        with pytest.raises(dlpack_usm.NotApplicable, match="BufferError"):
            dlpack_usm.check(tensor, consumer=None, stream_attempts=0)
    with cupy.cuda.Device(1):
        array = cupy.arange(64, dtype=cupy.float32)
    assert tensor_problems(array) == []


def test_torch_cuda_tensors_and_views_pass():
    torch = require("torch")
    base = torch.arange(24 * 1024, dtype=torch.float32, device="cuda").reshape(24, 1024)
    for tensor in (base, base[3:, 5:], base[:, ::2], base.t(), base[0, 0]):
        assert tensor_problems(tensor) == []
        assert runtime_of(tensor)["cuda_memory_type"] == "device"


def test_cupy_device_and_managed_arrays_pass():
    # Not negative strides: cupy 14.2 divides them as unsigned numbers
    # (DLP-STRIDES-UNSIGNED-DIVISION, fixtures/captured/defects).
    base = cupy.arange(4096, dtype=cupy.float32).reshape(64, 64)
    for array in (base, base[5:, 7:], base[::2, 1::3]):
        assert tensor_problems(array) == []
    managed = cupy.ndarray((64, 64), dtype=cupy.float32,
                           memptr=cupy.cuda.malloc_managed(64 * 64 * 4))
    runtime = runtime_of(managed)
    assert runtime["cuda_memory_type"] == "managed"
    # cupy exports managed memory as kDLCUDAManaged, device_id 0.
    assert tensor_problems(managed) == []


def test_jax_gpu_arrays_pass():
    jax = require("jax")
    if not any(device.platform == "gpu" for device in jax.devices()):
        pytest.skip("jax has no GPU backend here")
    base = jax.numpy.arange(4096, dtype=jax.numpy.float32).reshape(64, 64)
    for array in (base, base[5:, 7:]):
        assert tensor_problems(array) == []
        assert runtime_of(array)["cuda_memory_type"] == "device"


def test_visible_devices_are_recorded_when_set():
    runtime = runtime_of(DriverTensor("device"))
    assert runtime.get("cuda_visible_devices") == os.environ.get("CUDA_VISIBLE_DEVICES")
    assert runtime["cuda_device_count"] == DEVICES
