"""DLPack's numbers by their names ("kDLOneAPI", "kDLFloat", "READ_ONLY"),
as the tool's core holds them (src/dlpack/names.cpp), asked of the bridge
once per process: the package keeps no DLPack table of its own. Only the
versions are written here, because they are defaults of the public
functions, which importing the package must not need the library for; a
test holds NEWEST to the bridge's."""

import functools

from . import library

# The newest DLPack the tool models (dlpack.h 1.3): max_version's default.
NEWEST = (1, 3)
# What a consumer of DLPack 0.x (a legacy DLManagedTensor) speaks.
LAST_LEGACY = (0, 8)


@functools.lru_cache(maxsize=None)
def _names():
    return library.dlpack_names()


def device_type(name):
    """The number of the device type `name` ("kDLOneAPI": 14). A number,
    which is how the bridge writes a type the tool does not know, or an
    unknown name comes back as it is."""
    return _names()["device_types"].get(name, name) if isinstance(name, str) else name


def device_type_name(number):
    """The name of device type `number` (14: "kDLOneAPI"); a type the tool
    does not know comes back as its number in text."""
    for name, known in _names()["device_types"].items():
        if known == number:
            return name
    return str(number)


def dtype_code(name):
    """The number of the dtype code `name` ("kDLFloat": 2); as device_type,
    a number or an unknown name comes back as it is."""
    return _names()["dtype_codes"].get(name, name) if isinstance(name, str) else name


def flag(name):
    """The bit of the flag `name` ("READ_ONLY": 1)."""
    return _names()["flags"][name]


def deleter_offsets():
    """{capsule name: offset of the deleter in the struct it carries}."""
    return _names()["deleter_offsets"]


def on(device, *names):
    """Whether `device`, a (device_type, device_id) pair or None, is on one
    of the device types `names` ("kDLCPU", "kDLCUDAHost", ...)."""
    return device is not None and device[0] in [device_type(name) for name in names]
