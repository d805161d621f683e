"""The ways a consumer may ask for a capsule, as the array API standard
defines __dlpack__'s keywords (2023.12 on): max_version (none, DLPack 0.x,
1.0, the newest the tool models, a major version above it), dl_device (the
array's own, kDLCPU which the standard mandates, and the other device types
the tool knows, with copy=None and copy=False), copy (True, False) and
stream (-1, 0, 1, 2: the values it defines for CUDA and ROCm; on a device
without streams only None is accepted). Every request but those of the
max_version axis passes max_version as the newest the tool models, as a
consumer of the standard does with the newer keywords."""

from dataclasses import dataclass

from .._bridge import dlpack


@dataclass(frozen=True)
class Request:
    axis: str  # "max_version", "dl_device", "copy", "stream"
    value: str  # "None", "1.3", "kDLCPU:0 copy=False", "True", "-1"
    # keywords(own) -> __dlpack__'s keywords; `own` is the array's
    # (device_type, device_id), which "own" asks for
    keywords: object
    names_own_device: bool = False

    @property
    def id(self):
        """"max_version=1.3", "dl_device=kDLCPU:0,copy=False": the request in a case id."""
        return f"{self.axis}={self.value.replace(' ', ',')}"


def _version_text(version):
    return "None" if version is None else f"{version[0]}.{version[1]}"


def _max_version(version):
    keywords = {} if version is None else {"max_version": version}
    return Request("max_version", _version_text(version), lambda own: dict(keywords))


def _dl_device(type_name, copy):
    value = ("own" if type_name is None else f"{type_name}:0") + \
        ("" if copy is None else f" copy={copy}")

    def keywords(own):
        device = tuple(own) if type_name is None else (dlpack.device_type(type_name), 0)
        asked = {"max_version": dlpack.NEWEST, "dl_device": device}
        if copy is not None:
            asked["copy"] = copy
        return asked
    return Request("dl_device", value, keywords, names_own_device=type_name is None)


def _with_newest(axis, name, value):
    return Request(axis, repr(value),
                   lambda own: {"max_version": dlpack.NEWEST, name: value})


# The request every cell is asked first: what from_dlpack asks today.
BASE = _max_version(dlpack.NEWEST)

REQUESTS = (
    [BASE] + [_max_version(version) for version in (None, dlpack.LAST_LEGACY, (1, 0), (2, 0))] +
    [_dl_device(None, None), _dl_device("kDLCPU", None), _dl_device("kDLCPU", False)] +
    [_dl_device(name, copy) for name in ("kDLCUDA", "kDLOneAPI") for copy in (None, False)] +
    [_with_newest("copy", "copy", value) for value in (True, False)] +
    [_with_newest("stream", "stream", value) for value in (-1, 0, 1, 2)])
