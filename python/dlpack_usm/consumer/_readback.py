"""What a consumer made of an offered tensor, read back through the object it
returned: re-exported by the object's own __dlpack__ and read with the
bridge (its facts reader and page-guarded copy for host memory; the tool's
SYCL importer for kDLOneAPI memory), elements in logical order."""

from dataclasses import dataclass, field

from .._bridge import capsules, dlpack, library, tensor_json
from .._bridge.errors import BridgeError


@dataclass
class View:
    """The consumer's result as its own export describes it."""
    device: tuple
    dtype_code: int
    dtype_bits: int
    shape: list
    flags: list = field(default_factory=list)
    elements: bytes = b""
    how: str = ""


def _element_positions(shape, strides, element_bytes):
    """Byte positions of every element in logical (row-major) order."""
    positions = [0]
    for extent, stride in zip(shape, strides):
        positions = [base + index * stride * element_bytes
                     for base in positions for index in range(extent)]
    return positions


def _compact_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= max(extent, 1)
    return strides


def _gather_host(tensor):
    """The elements of a host tensor in logical order, read page-guarded."""
    dtype = tensor["dtype"]
    element_bytes = (dtype["bits"] * dtype["lanes"] + 7) // 8
    shape = tensor.get("shape") or []
    strides = tensor.get("strides") or _compact_strides(shape)
    positions = _element_positions(shape, strides, element_bytes)
    if not positions or 0 in shape:
        return b""
    data = int(tensor["data"], 16) + int(tensor.get("byte_offset", 0))
    low, high = min(positions), max(positions) + element_bytes
    span = library.read_memory(data + low, high - low)
    if span is None:
        raise BridgeError("the elements the consumer's result describes are not readable memory")
    return b"".join(span[at - low:at - low + element_bytes] for at in positions)


def _describe(capsule):
    name = capsules.capsule_name(capsule)
    pointer = capsules.capsule_pointer(capsule, name)
    return library.call_inspect(pointer, name, {"origin": "the consumer's result"})["capsule"]


def _view(capsule_json, elements, how):
    tensor = capsule_json["dl_tensor"]
    dtype = tensor["dtype"]
    code = dtype["code"]
    return View(device=tensor_json.device(capsule_json),
                dtype_code=dlpack.dtype_code(code), dtype_bits=dtype["bits"],
                shape=list(tensor.get("shape") or []), flags=tensor_json.flag_names(capsule_json),
                elements=elements, how=how)


def read_back(result):
    """The View of `result`; raises BridgeError saying why it cannot be read."""
    method = getattr(result, "__dlpack__", None)
    if method is None and hasattr(result, "__array__"):
        import numpy
        result = numpy.asarray(result)
        method = result.__dlpack__
    if method is None:
        raise BridgeError(f"the consumer returned {capsules.describe(result)}, which has no "
                          "__dlpack__ to read it through")
    try:
        capsule = method(max_version=dlpack.NEWEST)
    except Exception:  # a consumer's array may know only the legacy call
        capsule = method()
    described = _describe(capsule)
    device = tensor_json.device(described)
    if dlpack.on(device, "kDLCPU", "kDLCUDAHost"):
        return _view(described, _gather_host(described["dl_tensor"]), "its __dlpack__")
    del capsule  # unconsumed: its destructor frees it
    if dlpack.on(device, "kDLOneAPI"):
        from . import _sycl_exchange
        answer = _sycl_exchange.import_into_tool(result)
        return _view(described, answer["bytes"], "its __dlpack__ and the tool's SYCL importer")
    try:
        copied = method(max_version=dlpack.NEWEST, dl_device=(dlpack.device_type("kDLCPU"), 0),
                        copy=True)
    except Exception as error:
        raise BridgeError(f"the consumer's result is on device {device} and its __dlpack__ "
                          f"refused a copy to the host ({type(error).__name__}: {error})") \
            from None
    copy_json = _describe(copied)
    return _view(described, _gather_host(copy_json["dl_tensor"]),
                 "its __dlpack__(dl_device=(kDLCPU, 0), copy=True)")
