"""kDLOneAPI from Python: the runtime facts of a USM tensor as the
producer's own SYCL runtime (dpctl) states them, and the validation of
__sycl_usm_array_interface__ (seed 002) field by field.

The tool's OpenCL contexts are not dpctl's SYCL contexts, so a pointer of
dpctl's default context is unknown to the tool's runtime: USM kind, owning
device and default-context binding are asked of dpctl, and device_id is
checked against dpctl's own device order (dpctl.get_devices())."""

from .._bridge import capsules
from .._bridge.errors import describe_exception
from .._bridge.tensor_json import flag_names
from ..rules import finding
from ._foreign import calling


def _usm_memory(obj):
    """The dpctl memory object of the allocation behind `obj` (dpnp arrays
    hold a dpctl.tensor-style usm_ndarray that holds it), or None; None too
    where the object's attributes raise."""
    try:
        with calling("obj.get_array() and obj.usm_data"):
            for candidate in (obj, getattr(obj, "get_array", lambda: None)()):
                memory = getattr(candidate, "usm_data", None)
                if memory is not None and hasattr(memory, "get_usm_type"):
                    return memory
    except BaseException:  # noqa: B036 - the producer's attributes are its code
        pass
    return None


def _device_name(device):
    """SYCL's filter string, or the device's name for a sub-device, which
    has none (dpctl raises on filter_string there)."""
    try:
        return device.filter_string
    except Exception:
        return device.name


def export_refusal(obj, error):
    """Why `error`, raised by obj.__dlpack__, is the protocol working: dpctl
    refuses (DLPackCreationError) to export an allocation bound to a context
    other than its platform's default one, as the source documents require.
    None where that is not what happened."""
    if type(error).__name__ != "DLPackCreationError":
        return None
    memory = _usm_memory(obj)
    if memory is None:
        return None
    device = memory.sycl_device
    if memory.sycl_context == device.sycl_platform.default_context:
        return None
    where = "a sub-device" if device.parent_device is not None else "a device"
    return (f"{type(obj).__name__} on {where} ({device.name}) lives in a SYCL context other than "
            "its platform's default context, and dpctl refused to export it "
            f"(DLPackCreationError: {error}), as the kDLOneAPI protocol requires "
            "(DLP-ONEAPI-CONTEXT-NOT-DEFAULT): there is no tensor to check")


def runtime_facts(obj):
    """The capsule-file "runtime" section for a kDLOneAPI tensor, from
    dpctl's queries; None when dpctl or the allocation cannot be reached."""
    memory = _usm_memory(obj)
    if memory is None:
        return None
    try:
        import dpctl
    except ImportError:
        return None
    device = memory.sycl_device
    platform_default = device.sycl_platform.default_context
    root = device
    # A sub-device's position among its siblings is not asked for: making
    # the partition again to find it would create devices. Its root device
    # is what device_id must name (DLP-ONEAPI-DEVICE-ID-ROOT).
    while root.parent_device is not None:
        root = root.parent_device
    roots = list(dpctl.get_devices())
    facts = {
        # Asked in the platform's default context: where the import protocol looks.
        "usm_kind": memory.get_usm_type(platform_default),
        "root_device_count": len(roots),
        "default_context": memory.sycl_context == platform_default,
        "alloc_base": hex(memory._pointer),
        "alloc_size": int(memory.nbytes),
        "owner_device": _device_name(device),
    }
    if facts["usm_kind"] not in ("host", "device", "shared"):
        facts["usm_kind"] = "unknown"
    if facts["usm_kind"] == "host":
        # Host allocations belong to no device (as the tool's OpenCL runtime
        # reports them too): the queue's device is no owner.
        del facts["owner_device"]
    elif root in roots:
        facts["owner_root_index"] = roots.index(root)
    return facts


_SYCLOBJ_CAPSULES = ("SyclContextRef", "SyclQueueRef")


def _syclobj_form(syclobj):
    """The seed's name for the form of `syclobj`, or None when it has none."""
    if isinstance(syclobj, str):
        return "filter selector string"
    if capsules.is_capsule(syclobj):
        name = capsules.capsule_name(syclobj)
        return f"capsule {name}" if name in _SYCLOBJ_CAPSULES else None
    kind = type(syclobj)
    if kind.__module__.startswith("dpctl") and kind.__name__ in ("SyclContext", "SyclQueue"):
        return f"dpctl.{kind.__name__}"
    get_capsule = getattr(syclobj, "_get_capsule", None)
    if callable(get_capsule):
        capsule = get_capsule()
        if capsules.is_capsule(capsule) and capsules.capsule_name(capsule) in _SYCLOBJ_CAPSULES:
            return "object with _get_capsule()"
    return None


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _int_tuple(value):
    return isinstance(value, tuple) and all(_is_int(item) for item in value)


def _check_fields(interface, has_buffer):
    """DLP-PY-SUAI-FIELD findings; returns them."""
    found = []

    def bad(key, message):
        found.append(finding("DLP-PY-SUAI-FIELD", f"__sycl_usm_array_interface__[{key!r}]",
                             message))

    if not isinstance(interface, dict):
        bad("", f"__sycl_usm_array_interface__ is a {type(interface).__name__}, not a dict")
        return found
    if not _int_tuple(interface.get("shape")):
        bad("shape", f"shape is not a tuple of integers, found {interface.get('shape')!r}")
    if not isinstance(interface.get("typestr"), str):
        bad("typestr", f"typestr is not a string, found {interface.get('typestr')!r}")
    if "typedescr" in interface:
        descr = interface["typedescr"]
        if not (isinstance(descr, list) and all(isinstance(item, tuple) for item in descr)):
            bad("typedescr", f"typedescr is not a list of tuples, found {descr!r}")
    if "data" in interface:
        data = interface["data"]
        if not (isinstance(data, tuple) and len(data) == 2 and _is_int(data[0]) and data[0] >= 0
                and isinstance(data[1], bool)):
            bad("data", f"data is not (int, bool), the USM pointer and read-only, found {data!r}")
    elif not has_buffer:
        bad("data", "data is missing and the object has no buffer interface to fall back on")
    strides = interface.get("strides")
    if strides is not None and not _int_tuple(strides):
        bad("strides", f"strides is not a tuple of integers or None, found {strides!r}")
    if "offset" in interface and not _is_int(interface["offset"]):
        bad("offset", f"offset is not an int, found {interface['offset']!r}")
    if not _is_int(interface.get("version")):
        bad("version", f"version is not an int, found {interface.get('version')!r}")
    if "syclobj" not in interface:
        bad("syclobj", "syclobj is missing: it names the context the USM pointer is bound to")
    return found


_TYPESTR_KIND = {"kDLInt": "i", "kDLUInt": "u", "kDLFloat": "f", "kDLComplex": "c",
                 "kDLBool": "b"}


def _typestr_agrees(typestr, dtype):
    kind = _TYPESTR_KIND.get(dtype.get("code"))
    if kind is None or dtype.get("lanes") != 1 or len(typestr) < 3:
        return True  # nothing the array interface could spell to compare with
    # "|" (not applicable) is what dpctl writes for every type; "<" and "="
    # are native on the little-endian machines DLPack producers run on.
    return typestr[0] in "<|=" and typestr[1] == kind and typestr[2:] == str(dtype["bits"] // 8)


def _check_agreement(interface, tensor, flags):
    found = []

    def bad(key, message):
        found.append(finding("DLP-PY-SUAI-AGREES", f"__sycl_usm_array_interface__[{key!r}]",
                             message))

    shape = tuple(tensor.get("shape") or ())
    # A field of the wrong type is DLP-PY-SUAI-FIELD's; only valid ones are compared.
    if _int_tuple(interface.get("shape")) and interface["shape"] != shape:
        bad("shape", f"shape {interface.get('shape')!r} but the DLPack tensor's is {shape!r}")
    typestr = interface.get("typestr")
    dtype = tensor.get("dtype", {})
    if isinstance(typestr, str) and not _typestr_agrees(typestr, dtype):
        bad("typestr", f"typestr {typestr!r} but the DLPack dtype is {dtype.get('code')} "
                       f"{dtype.get('bits')} bits")
    itemsize = max(1, dtype.get("bits", 8) // 8)
    data = interface.get("data")
    if isinstance(data, tuple) and len(data) == 2 and _is_int(data[0]) and tensor.get("data"):
        offset = interface.get("offset", 0) if _is_int(interface.get("offset", 0)) else 0
        address = data[0] + offset * itemsize
        dlpack_address = int(tensor["data"], 16) + int(tensor.get("byte_offset", 0))
        if address != dlpack_address and any(shape) and all(shape):
            bad("data", f"data[0] + offset elements is {address:#x} but the DLPack tensor "
                        f"starts at {dlpack_address:#x}")
        if "READ_ONLY" in flags and data[1] is not True:
            bad("data", "data[1] says writable but the DLPack tensor is READ_ONLY")
    strides = interface.get("strides")
    dlpack_strides = tensor.get("strides")
    if _int_tuple(strides) and dlpack_strides is not None and len(shape) > 1 and all(shape):
        if tuple(dlpack_strides) != strides:
            bad("strides", f"strides {strides!r} (elements) but the DLPack tensor's are "
                           f"{tuple(dlpack_strides)!r}")
    return found


def check_usm_array_interface(obj, inspection):
    """DLP-PY-SUAI-* findings of `obj`; none when it has no such attribute."""
    try:
        with calling("__sycl_usm_array_interface__"):
            interface = obj.__sycl_usm_array_interface__
    except AttributeError:
        return []
    except BaseException as error:  # noqa: B036 - SystemExit from a producer is a finding too
        return [finding("DLP-PY-SUAI-FIELD", "__sycl_usm_array_interface__",
                        f"__sycl_usm_array_interface__ raised {describe_exception(error)}; "
                        "an object without the interface raises AttributeError")]
    has_buffer = True
    try:
        with calling("memoryview(obj)"):
            memoryview(obj)
    except BaseException:  # noqa: B036 - TypeError: no buffer; anything else: none that works
        has_buffer = False
    found = _check_fields(interface, has_buffer)
    if not isinstance(interface, dict):
        return found
    if "syclobj" in interface and _syclobj_form(interface["syclobj"]) is None:
        found.append(finding(
            "DLP-PY-SUAI-SYCLOBJ", "__sycl_usm_array_interface__['syclobj']",
            f"syclobj is {capsules.describe(interface['syclobj'])}, none of the forms the "
            "interface defines (filter selector string, dpctl.SyclContext, dpctl.SyclQueue, a "
            "SyclContextRef or SyclQueueRef capsule, an object with _get_capsule())"))
    tensor = inspection.capsule.get("dl_tensor")
    if tensor is not None:
        found.extend(_check_agreement(interface, tensor, flag_names(inspection.capsule)))
    return found
