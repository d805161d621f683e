"""Validation of a type's __dlpack_c_exchange_api__ (DLPack 1.3): a
PyCapsule named "dlpack_exchange_api" on the type, holding a
DLPackExchangeAPI whose header names major version 1 and whose required
function pointers are set; its managed_tensor_from_py_object_no_sync is
called and the tensor it gives is compared with what __dlpack__ gives."""

import ctypes

from .._bridge import capsules, dlpack, library
from .._bridge.errors import UnreadableTensor, describe_exception
from ..rules import finding
from ._foreign import calling
from ._inspect import read_capsule_pointer

CAPSULE_NAME = "dlpack_exchange_api"


REQUIRED = ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
            "managed_tensor_to_py_object_no_sync", "current_work_stream")

# PYFUNCTYPE: called with the GIL held, and a Python error the function
# sets is raised, as the header's "-1 with a Python exception set" needs.
FROM_PY_OBJECT = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object,
                                   ctypes.POINTER(ctypes.c_void_p))
DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _api_capsule(obj):
    kind = type(obj)
    for klass in kind.__mro__:
        if "__dlpack_c_exchange_api__" in vars(klass):
            return vars(klass)["__dlpack_c_exchange_api__"], True
    instance = getattr(obj, "__dict__", {})
    if "__dlpack_c_exchange_api__" in instance:
        return instance["__dlpack_c_exchange_api__"], False
    return None, False


def _exported_tensor(slots, obj, origin):
    """The Inspection of the tensor managed_tensor_from_py_object_no_sync
    gives for `obj`, after which its deleter is called; or a message."""
    function = FROM_PY_OBJECT(slots["managed_tensor_from_py_object_no_sync"])
    out = ctypes.c_void_p()
    try:
        with calling("__dlpack_c_exchange_api__'s managed_tensor_from_py_object_no_sync(obj)"):
            status = function(obj, ctypes.byref(out))
    except BaseException as error:  # noqa: B036 - SystemExit from a producer is a finding too
        return None, f"managed_tensor_from_py_object_no_sync raised {describe_exception(error)}"
    if status != 0 or not out.value:
        return None, f"managed_tensor_from_py_object_no_sync returned {status} and " \
                     f"{'no tensor' if not out.value else 'a tensor'}"
    try:
        return read_capsule_pointer(out.value, capsules.VERSIONED, origin), None
    except UnreadableTensor as unreadable:
        return None, f"managed_tensor_from_py_object_no_sync gave a tensor that cannot be read: " \
                     f"{unreadable.message}"
    finally:
        # The tensor is ours (an owning DLManagedTensorVersioned): free it,
        # when its deleter can be read at all.
        offset = dlpack.deleter_offsets()[capsules.VERSIONED]
        data = library.read_memory(out.value + offset, ctypes.sizeof(ctypes.c_void_p))
        deleter = None if data is None else ctypes.c_void_p.from_buffer_copy(data).value
        if deleter:
            with calling("the deleter of the tensor managed_tensor_from_py_object_no_sync gave"):
                DELETER(deleter)(out.value)


def check_exchange_api(obj, base, origin):
    capsule, on_type = _api_capsule(obj)
    if capsule is None:
        return []
    where = "type(obj).__dlpack_c_exchange_api__"
    if not on_type:
        return [finding("DLP-PY-EXCHANGE-API-CAPSULE", "obj.__dlpack_c_exchange_api__",
                        "__dlpack_c_exchange_api__ is set on the instance, not on the type, "
                        "where consumers look it up")]
    name = capsules.capsule_name(capsule) if capsules.is_capsule(capsule) else None
    if name != CAPSULE_NAME:
        return [finding("DLP-PY-EXCHANGE-API-CAPSULE", where,
                        f"__dlpack_c_exchange_api__ is {capsules.describe(capsule)}, not a "
                        f"capsule named {CAPSULE_NAME!r}")]
    pointer = capsules.capsule_pointer(capsule, CAPSULE_NAME)
    if not pointer:
        return [finding("DLP-PY-EXCHANGE-API-CAPSULE", where,
                        "the dlpack_exchange_api capsule carries a NULL pointer")]
    # The table as the core reads it (its layout is the core's, not ours).
    table = library.exchange_api_table(pointer)
    if not table["header_readable"]:
        return [finding("DLP-PY-EXCHANGE-API-READABLE", where,
                        f"the dlpack_exchange_api capsule points to {pointer:#x}, which is not "
                        "readable memory; a consumer reading the table would crash")]
    major, minor = table["version"]
    if major != 1:
        return [finding("DLP-PY-EXCHANGE-API-VERSION", f"{where}.header.version",
                        f"DLPackExchangeAPI version {major}.{minor}: a DLPack 1.x consumer may "
                        "read nothing past the header" +
                        (" (prev_api is set)" if table["prev_api"] else ""))]
    if not table["table_readable"]:
        return [finding("DLP-PY-EXCHANGE-API-READABLE", where,
                        f"the DLPackExchangeAPI at {pointer:#x} has a readable header but its "
                        "function pointers lie in memory that cannot be read")]
    slots = table["slots"]
    found = [finding("DLP-PY-EXCHANGE-API-NULL", f"{where}.{field}", f"{field} is NULL")
             for field in REQUIRED if not slots[field]]
    if not slots["managed_tensor_from_py_object_no_sync"]:
        return found
    exported, problem = _exported_tensor(slots, obj, origin)
    if problem is not None:
        found.append(finding("DLP-PY-EXCHANGE-API-TENSOR", f"{where}."
                             "managed_tensor_from_py_object_no_sync", problem))
    elif exported.capsule.get("dl_tensor") != base.capsule.get("dl_tensor"):
        found.append(finding("DLP-PY-EXCHANGE-API-TENSOR", f"{where}."
                             "managed_tensor_from_py_object_no_sync",
                             f"it gave {exported.capsule.get('dl_tensor')} but __dlpack__ gives "
                             f"{base.capsule.get('dl_tensor')}"))
    return found
