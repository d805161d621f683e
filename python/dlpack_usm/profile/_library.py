"""The library under profile, from inside the processes that run its code:
its module (the array API namespace: numpy, dpnp, jax.numpy, ...), its name
and version, and its devices (the namespace's inspection API,
__array_namespace_info__().devices(), where it has one) with the DLPack
device an array made on each says it is on."""

import importlib
import re

from .._bridge.errors import BridgeError, describe_exception
from .._expression import install_hint, interpreter
from .._package_version import package_version
from ..producer._foreign import calling
from ._cells import on


def import_namespace(module):
    """The module `module` names: the namespace the profile makes arrays with."""
    try:
        namespace = importlib.import_module(module)
    except ImportError as error:
        missing = getattr(error, "name", None) or module
        raise BridgeError(f"cannot import {module} in {interpreter()}: "
                          f"{describe_exception(error)}",
                          install_hint(missing.split(".")[0], True)) from None
    except BaseException as error:  # noqa: B036 - the library's import is its code
        raise BridgeError(f"importing {module} raised {describe_exception(error)}",
                          f"import it in {interpreter()} first to see why", exit_code=3) from None
    if not callable(getattr(namespace, "asarray", None)):
        raise BridgeError(f"{module} has no asarray(): it is no array API namespace",
                          "name the module of the library's array functions, e.g. numpy, "
                          "jax.numpy or array_api_strict")
    return namespace


def describe(module):
    """{"module", "name", "version"}: the top-level package's name and version."""
    top = module.split(".")[0]
    return {"module": module, "name": top, "version": package_version(top)}


def devices(namespace, named=None):
    """The namespace's devices, in its order, then None: the default device
    (arrays made without device=), the only one where the namespace has no
    inspection API, and the one profiled where none of those it lists takes
    an array (the profile folds it into the listed device it is). `named`
    (--library-device) replaces them: texts passed as device= as they are
    (torch takes "cuda:0"), for a namespace that cannot list its devices."""
    if named:
        return list(named)
    info = getattr(namespace, "__array_namespace_info__", None)
    if info is None:
        return [None]
    try:
        with calling("__array_namespace_info__().devices()"):
            return list(info().devices()) + [None]
    except BaseException:  # noqa: B036 - the library's code; its default device is still there
        return [None]


def _dlpack_device(namespace, device):
    """(device_type, device_id) of zeros(3) made on `device`, or the error text."""
    try:
        with calling(f"zeros(3, device={device!r}).__dlpack_device__()"):
            reported = namespace.zeros(3, **on(device)).__dlpack_device__()
            return [int(reported[0]), int(reported[1])], None
    except BaseException as error:  # noqa: B036 - the library's code under test
        return None, f"{type(error).__name__}: {error}"


def device_text(device):
    """The library's text of a device without the object's address (which
    differs run to run): "opencl:cpu:0", "<dpctl.SyclDevice [...]>"."""
    return "default" if device is None else re.sub(r" at 0x[0-9a-fA-F]+", "", str(device))


def discover(namespace, named=None):
    """One entry per device of the namespace (or of `named`): its text, and
    the DLPack device it exports arrays on (or the error making one raised)."""
    found = []
    for index, device in enumerate(devices(namespace, named)):
        dlpack_device, error = _dlpack_device(namespace, device)
        found.append({"index": index, "library_device": device_text(device),
                      "dlpack_device": dlpack_device, "error": error})
    return found


def _memory_on(namespace, device):
    """The memory zeros(3) made on `device` exports ("cpu", "device-usm",
    "cuda"), as _run.memory names it; None where it exports none."""
    from .._bridge import dlpack
    from ..producer._inspect import inspect
    from ._run import memory
    try:
        with calling(f"zeros(3, device={device!r}).__dlpack__()"):
            array = namespace.zeros(3, **on(device))
            return memory(inspect(array, dlpack.NEWEST, f"zeros(3) of {device_text(device)}"))
    except BaseException:  # noqa: B036 - the library's code; the cases say what fails
        return None


def discover_with_memory(namespace, named=None):
    """discover(), each device that exports with the memory its arrays are in."""
    found = discover(namespace, named)
    for entry, device in zip(found, devices(namespace, named)):
        if entry["dlpack_device"] is not None:
            entry["memory"] = _memory_on(namespace, device)
    return found
