"""One case of a producer profile, run in a runner process: the cell's array
made on its device (once for all the requests of the cell), __dlpack__
asked with the request's keywords, and the answer judged (_judge). Every
call into the library is announced (producer._foreign), so that the
command's process can name the call a crash or hang happened in."""

import time

from .._bridge import capsules, dlpack, tensor_json
from .._bridge.errors import describe_exception
from ..producer import _copy_oracle, _protocol
from ..producer._foreign import MAKING, calling
from . import _cells, _judge
from ._requests import request_of



class Arrays:
    """The array of the cell being asked, made once for its requests, and
    what the base request gave for it."""

    def __init__(self, namespace, library_devices, origin):
        self.namespace = namespace
        self.library_devices = library_devices
        self.origin = origin
        self.base_request = None
        self.key = None
        self.array = self.reason = self.base = self.own = None
        self.keep = {}

    def select(self, spec):
        """Makes the array of `spec`'s cell on its device, unless it is made;
        its base request (spec["base"]) is asked at once."""
        self.base_request = request_of(spec["base"])
        key = (spec["device_index"], spec["cell"])
        if key == self.key:
            return
        self.key, self.array, self.reason, self.base, self.own = key, None, None, None, None
        self.keep = {}
        cell = _cells.cell(spec["cell"], spec["cell_axis"], spec["cell_value"])
        device = self.library_devices[spec["device_index"]]
        try:
            with calling(f"{MAKING}{cell.name}: {cell.description}"):
                self.array = cell.make(self.namespace, device, self.keep)
        except _cells.NotMade as reason:
            self.reason = f"{cell.description}: {reason}"
        except BaseException as error:  # noqa: B036 - the library's code under test
            self.reason = f"{cell.description} raised {describe_exception(error)}"
        else:
            self.own, self.base = self._own_device(), self._base()

    def _own_device(self):
        try:
            with calling("__dlpack_device__()"):
                reported = self.array.__dlpack_device__()
            return int(reported[0]), int(reported[1])
        except BaseException:  # noqa: B036 - judged by `check`, here only a name
            return None

    def _base(self):
        """The Inspection of the base request's capsule, or None."""
        capsule, error = _protocol.ask(self.array, **self.base_request.keywords(self.own))
        if error is not None:
            return None
        return _judge.read(self.array, capsule, self.origin)[0]


def _not_applicable(reason):
    return {"outcome": "not-applicable", "status": "not_applicable", "reason": reason}


def _read_only_note(arrays, inspection):
    """Whether the read-only cell's export views the read-only buffer."""
    if "address" not in arrays.keep or inspection is None:
        return []
    at = tensor_json.data_address(inspection.capsule) + \
        int((inspection.capsule.get("dl_tensor") or {}).get("byte_offset") or 0)
    flagged = "READ_ONLY" in tensor_json.flag_names(inspection.capsule)
    if at != arrays.keep["address"]:
        return ["the capsule's data is a copy, not the read-only buffer"]
    return [f"the capsule views the read-only buffer {'with' if flagged else 'without'} "
            "DLPACK_FLAG_BITMASK_READ_ONLY" +
            ("" if inspection.capsule_name == capsules.VERSIONED else " (a legacy capsule)")]


def _oracle_notes(request, keywords, capsule, error, inspection, base):
    """The copy oracle's row of a request that asks copy or dl_device, from
    the answer as it was read once (`inspection`)."""
    if not request.is_oracle_row or base is None:
        return []
    return [_copy_oracle.oracle_note(keywords, capsule, error, inspection, base)]


def _answer(arrays, spec, request):
    """The judged answer to the request, as the record's fields."""
    own = arrays.own or (tensor_json.device(arrays.base.capsule) if arrays.base else None)
    if own is None and request.names_own_device:
        return _not_applicable("the array names no device: __dlpack_device__() and the base "
                               "request gave none")
    keywords = request.keywords(own)
    capsule, error = _protocol.ask(arrays.array, **keywords)
    base = arrays.base
    found = _judge.request_findings(request, keywords, capsule, error, base, arrays.origin)
    fields = {"call": f"__dlpack__({_protocol.arguments(keywords)})"}
    if error is not None:
        outcome, status = _judge.refusal(error, found)
        fields["exception"] = f"{type(error).__name__}: {error}"
        fields["notes"] = _oracle_notes(request, keywords, capsule, error, None, base)
    else:
        inspection, more = _judge.read(arrays.array, capsule, arrays.origin, base)
        found = _judge.unique(found + more)
        outcome, status = _judge.emission(found)
        fields["emitted"] = _judge.emitted(inspection, capsule)
        fields["notes"] = _oracle_notes(request, keywords, capsule, error, inspection, base) + \
            _read_only_note(arrays, inspection) + \
            (inspection.reader_notes + inspection.notes if inspection else [])
        del capsule  # the producer's destructor frees the tensor now
    # The infos (alignment, a legacy capsule's version) are check's to print:
    # a profile keeps what warns or fails.
    fields.update(outcome=outcome, status=status,
                  findings=[item.to_json() for item in found if item.severity != "info"])
    return fields


def run_case(arrays, spec):
    """The record of case `spec`."""
    started = time.monotonic()
    arrays.select(spec)
    record = dict(spec, memory=memory(arrays.base), outcome=None, status=None, reason="",
                  exception="", findings=[], emitted=None, notes=[])
    if arrays.array is None:
        record.update(_not_applicable(arrays.reason))
    else:
        record.update(_answer(arrays, spec, request_of(spec["request"])))
    record["duration_ms"] = round((time.monotonic() - started) * 1000, 3)
    return record


# The memory kinds the CUDA driver names, as the profile names them.
CUDA_MEMORY = {"device": "cuda", "host": "cuda-host", "managed": "cuda-managed"}


def memory(base):
    """The memory of the array the base request exported: "cpu", a USM kind
    ("device-usm"), a CUDA kind ("cuda", "cuda-host", "cuda-managed"), else
    the device type's short name; None where there was no export."""
    if base is None or tensor_json.device(base.capsule) is None:
        return None
    device = tensor_json.device(base.capsule)
    runtime = base.capsule.get("runtime") or {}
    if dlpack.on(device, "kDLCPU"):
        return "cpu"
    if runtime.get("usm_kind"):
        return f"{runtime['usm_kind']}-usm"
    if runtime.get("cuda_memory_type") in CUDA_MEMORY:
        return CUDA_MEMORY[runtime["cuda_memory_type"]]
    return dlpack.device_type_name(device[0]).removeprefix("kDL").lower()
