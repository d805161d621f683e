"""The producer object a consumer under test is given: one cell of the
consumer matrix, exported on demand by __dlpack__ as the array API standard
has a producer do, with every call and its arguments recorded."""

from .._bridge import dlpack
from .._bridge.errors import BridgeError
from . import _offers


def _describe(value):
    """A JSON-safe account of an argument: numbers and tuples as they are,
    anything else (a SYCL queue, say) by its type."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple) and all(isinstance(item, (int, bool)) for item in value):
        return list(value)
    return f"<{type(value).__module__}.{type(value).__qualname__}>"


class OfferedProducer:
    """Offers cell `cell` (a name of the bridge's matrix) in `memory`
    ("cpu", or a USM kind on root device `device_id`)."""

    def __init__(self, cell, memory, device_id=0):
        self._cell = cell
        self._memory = memory
        self._device_id = device_id
        self.calls = []       # every __dlpack__ / __dlpack_device__ call, arguments included
        self.offers = []      # the bridge's info of each tensor handed out
        self.capsules = []    # each capsule handed out, to see whether it was renamed
        self.notes = []       # where the consumer used the protocol against the standard
        self.untestable = None
        # Why the cell needs a newer DLPack than the consumer asked for.
        self.consumer_too_old = None

    def _device(self):
        if self._memory == "cpu":
            return (dlpack.device_type("kDLCPU"), 0)
        return (dlpack.device_type("kDLOneAPI"), self._device_id)

    def __dlpack_device__(self):
        self.calls.append({"method": "__dlpack_device__"})
        return self._device()

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.calls.append({"method": "__dlpack__", "stream": _describe(stream),
                           "max_version": _describe(max_version),
                           "dl_device": _describe(dl_device), "copy": _describe(copy)})
        version = self._version(max_version)
        own = self._device()
        memory, copied = self._memory, copy is True
        if dl_device is not None and tuple(dl_device) != own:
            # The standard: BufferError where the producer cannot serve the
            # device, or where serving it needs a copy that copy=False forbids.
            if copy is False:
                raise BufferError(f"dl_device {tuple(dl_device)} is not the tensor's device "
                                  f"{own}, and copy=False forbids a copy")
            if tuple(dl_device) != (dlpack.device_type("kDLCPU"), 0):
                raise BufferError(f"this producer copies to (kDLCPU, 0) only, not to "
                                  f"{tuple(dl_device)}")
            memory, copied = "cpu", True
        if stream is not None and dlpack.on(own, "kDLCPU"):
            self.notes.append(f"passed stream={_describe(stream)!r} for a kDLCPU tensor; the "
                              "standard allows only None there")
        if copied and version < (1, 0):
            # A legacy tensor cannot say IS_COPIED; the copy is made all the same.
            copied = False
        try:
            capsule, info = _offers.offer(self._cell, memory, self._device_id, version, copied)
        except BridgeError as error:
            # The tool failed to offer the cell: no finding about the consumer.
            self.untestable = f"the tool could not offer this cell: {error.message}"
            raise BufferError(self.untestable) from None
        if capsule is None:
            # The standard's way for a producer that cannot export what is asked.
            self.untestable = info["untestable"]
            self.consumer_too_old = info["consumer_too_old"]
            raise BufferError(self.untestable or self.consumer_too_old)
        self.offers.append(info)
        self.capsules.append(capsule)
        return capsule

    def _version(self, max_version):
        """The version asked for: legacy for None or a major below 1."""
        if max_version is None:
            return dlpack.LAST_LEGACY
        try:
            major, minor = (int(part) for part in max_version)
        except (TypeError, ValueError):
            raise TypeError(f"max_version must be a (major, minor) tuple, not "
                            f"{max_version!r}") from None
        if major < 1:
            return dlpack.LAST_LEGACY
        newest = dlpack.NEWEST
        return min((major, minor), newest) if major == newest[0] else newest
