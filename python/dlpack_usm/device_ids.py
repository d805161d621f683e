"""python3 -m dlpack_usm device-ids: one USM allocation per root device,
exported in this process by every kDLOneAPI producer installed, each
producer's (device_type, device_id) beside SYCL's own answer.

The tool's own producer allocates device USM on the root device and exports
it (DLPack 1.3, the seed protocol's device id); dpnp takes it without a copy
(dpnp.from_dlpack), so that dpnp, dpnp.tensor and oneDAL's tables
(scikit-learn-intelex) export the very same memory. SYCL's answer is the
owning root device's index (sycl::get_pointer_device, read by the tool's
runtime facts). Each export is read by the tool's tensor rules: a producer
whose device_id departs from SYCL's answer gets the rule's finding
(DLP-ONEAPI-DEVICE-ID-ROOT and its kin) under its own name."""

import dataclasses
import json
import os
import sys
import textwrap

from ._bridge import dlpack, library
from ._bridge.errors import BridgeError, describe_exception
from ._expression import evaluate
from .consumer._sycl_exchange import ToolTensor
from .producer._inspect import inspect
from .rules import finding

ONEAPI = "kDLOneAPI"


@dataclasses.dataclass
class Row:
    producer: str
    state: str  # "agrees", "departs", "not available", "a copy"
    reported: object = None  # __dlpack_device__()
    exported: object = None  # the capsule's (device_type, device_id)
    detail: str = ""
    findings: list = dataclasses.field(default_factory=list)


def _peer_dpnp(array):
    return array


def _peer_dpnp_tensor(array):
    import dpnp.tensor as dpt  # noqa: PLC0415 - a peer, imported where present
    return dpt.asarray(array.get_array() if hasattr(array, "get_array") else array)


def _peer_onedal(array):
    from onedal.datatypes import to_table  # noqa: PLC0415 - scikit-learn-intelex, if present
    return to_table(array)


# The kDLOneAPI producers the tool knows of, by name; each makes its object
# over the dpnp array that views the tool's allocation.
PEERS = (("dpnp", _peer_dpnp), ("dpnp.tensor", _peer_dpnp_tensor), ("onedal", _peer_onedal))


def _device_pair(device):
    return None if device is None else [int(device[0]), int(device[1])]


def _judge(name, obj, tool):
    """The Row of producer `name`'s export of `obj`, next to the tool's."""
    try:
        reported = _device_pair(obj.__dlpack_device__())
    except BaseException as error:  # noqa: B036 - the library's code under test
        reported = f"raised {describe_exception(error)}"
    found = inspect(obj, origin=name)
    body = found.capsule.get("dl_tensor") or {}
    exported = [dlpack.device_type(body["device"]["device_type"]), body["device"]["device_id"]]
    row = Row(name, "agrees", reported, exported)
    if body.get("data") != (tool.capsule.get("dl_tensor") or {}).get("data"):
        row.state, row.detail = "a copy", "not the tool's allocation: its export is a copy"
    departs = [item for item in found.findings
               if item.severity == "error" and "DEVICE" in item.rule_id]
    if exported != _answer(tool) and not departs:
        # The rules read no runtime facts where the id names a device that
        # cannot own the memory; SYCL's answer for this allocation is known.
        departs = [finding("DLP-ONEAPI-DEVICE-ID-ROOT", "dl_tensor.device.device_id",
                           f"exports kDLOneAPI:{exported[1]} for memory whose owning root "
                           f"device has index {_answer(tool)[1]} (sycl::get_pointer_device)")]
    if departs:
        row.state = "departs"
        row.findings = [item.to_json() for item in departs]
    return row


def _answer(tool):
    """SYCL's answer for the tool's allocation: (kDLOneAPI, owning root index)."""
    runtime = tool.capsule.get("runtime") or {}
    return [dlpack.device_type(ONEAPI), runtime.get("owner_root_index")]


def _row(name, make, array, tool):
    try:
        obj = make(array)
    except ImportError as error:
        return Row(name, "not available", detail=f"not installed ({error})")
    except BaseException as error:  # noqa: B036 - the peer declined this memory
        return Row(name, "not available", detail=describe_exception(error))
    try:
        return _judge(name, obj, tool)
    except BridgeError as error:
        return Row(name, "not available", detail=f"no tensor to read: {error.message}")
    except BaseException as error:  # noqa: B036 - its export raised
        return Row(name, "not available", detail=f"__dlpack__ raised "
                                                 f"{describe_exception(error)}")


def _device_rows(device_id, extra):
    """(SYCL's answer, rows) for root device `device_id`: the tool's export
    first, then each peer's export of the same memory."""
    import dpnp  # noqa: PLC0415 - the bridge between the tool's memory and the peers
    import numpy  # noqa: PLC0415
    exported = ToolTensor(numpy.arange(4, dtype=numpy.float32), "device", device_id)
    array = dpnp.from_dlpack(exported)
    tool = inspect(array, origin="dpnp over the tool's allocation")
    own = [dlpack.device_type(ONEAPI), exported.info["device_id"]]
    rows = [Row("dlpack-usm (the tool)", "agrees" if own == _answer(tool) else "departs",
                own, own)]
    for name, make in PEERS + tuple(extra):
        rows.append(_row(name, make, array, tool))
    return _answer(tool), rows


def root_devices():
    """(kDLOneAPI id, filter string, name) of each root device with device USM."""
    import dpctl  # noqa: PLC0415
    return [(index, device.filter_string, device.name)
            for index, device in enumerate(dpctl.get_devices())
            if device.has_aspect_usm_device_allocations]


def survey(extra=()):
    """[{"device_id", "device", "name", "sycl", "rows"}] for every root device."""
    found = []
    for device_id, selector, name in root_devices():
        answer, rows = _device_rows(device_id, extra)
        found.append({"device_id": device_id, "device": selector, "name": name,
                      "sycl": answer, "rows": [dataclasses.asdict(row) for row in rows]})
    return found


def _width():
    """The columns lines are fitted to: COLUMNS, else the terminal's, else
    none (0: a pipe or a file keeps whole lines), as the command line does."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 0


def _fitted(text, indent, width):
    """`text` after `indent`, wrapped to `width` with later lines indented
    two columns further (one line where width is 0)."""
    if width == 0:
        return [indent + text]
    return textwrap.wrap(text, max(width, len(indent) + 20), initial_indent=indent,
                         subsequent_indent=indent + "  ", break_on_hyphens=False)


def text(found, width=0):
    """The survey as lines a person reads, fitted to `width`; text from the
    libraries escaped."""
    lines = []
    for device in found:
        lines.append(f"{device['device']}  {library.printable(device['name'])}  SYCL's answer: "
                     f"kDLOneAPI:{device['sycl'][1]}")
        for row in device["rows"]:
            shown = "" if row["exported"] is None else \
                f"  exports {row['exported'][0]}:{row['exported'][1]}"
            said = "" if row["reported"] is None else f"  __dlpack_device__ {row['reported']}"
            lines += _fitted(f"{row['producer']:<22} {row['state']:<13}{shown}{said}", "  ",
                             width)
            if row["detail"]:
                lines += _fitted(library.printable(row["detail"]), "      ", width)
            for item in row["findings"]:
                lines += _fitted(f"{item['rule_id']}: {library.printable(item['message'])}",
                                 "      ", width)
    counts = [row["state"] for device in found for row in device["rows"]]
    lines += _fitted(f"device-ids: {counts.count('agrees')} agree with SYCL, "
                     f"{counts.count('departs')} depart, {counts.count('a copy')} copied, "
                     f"{counts.count('not available')} not available", "", width)
    return "\n".join(lines)


def command(arguments):
    """Exit 0 where every producer that exported agrees, 1 where one departs."""
    extra = [(expression, evaluate(expression)) for expression in arguments.producer]
    found = survey(extra)
    if not found:
        print("device-ids: no SYCL root device with device USM; nothing to compare "
              "(see `dlpack-usm list-devices`)")
        return 3
    print(json.dumps({"devices": found}, indent=2) if arguments.json else text(found, _width()))
    return 1 if any(row["state"] == "departs" for device in found
                    for row in device["rows"]) else 0
