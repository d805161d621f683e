"""The cases of a producer profile: every cell (_cells) on every device the
library has, each asked every request (_requests), the base request first.
The command's process lays them out from what a runner discovered; each
runner lays them out again from the same payload, so that a case index
means the same case on both sides."""

from .._bridge import dlpack
from . import _cells, _requests


def device_name(dlpack_device, usm_devices):
    """The tool's name of a DLPack device: "cpu", a USM root device as
    list-devices names it ("opencl:cpu:0"; `usm_devices` are the consumer
    matrix's), else the device type's short name and id ("cuda:0")."""
    device_type, device_id = dlpack_device
    if device_type == dlpack.device_type("kDLCPU"):
        return "cpu"
    if device_type == dlpack.device_type("kDLOneAPI"):
        for usm in usm_devices:
            if usm["device_id"] == device_id:
                return usm["name"]
    short = dlpack.device_type_name(device_type).removeprefix("kDL").lower()
    return f"{short}:{device_id}"


def profiled_devices(discovered, usm_devices):
    """The devices to profile: one per DLPack device (the first of the
    library's devices that exports there; the others are its aliases), and
    those no array could be made on, with their error."""
    kept, by_name = [], {}
    for entry in discovered:
        if entry["dlpack_device"] is None:  # no array could be made there
            kept.append(dict(entry, name=f"device {entry['index']} of the library", aliases=[]))
            continue
        name = device_name(entry["dlpack_device"], usm_devices)
        if name in by_name:
            by_name[name]["aliases"].append(entry["library_device"])
            continue
        by_name[name] = dict(entry, name=name, aliases=[])
        kept.append(by_name[name])
    return kept


def cases(devices, cell_names=None):
    """The case specs: device by device, cell by cell, request by request.
    `cell_names` keeps those cells only (all where None)."""
    specs = []
    for device in devices:
        for cell in _cells.cells():
            if cell_names is not None and cell.name not in cell_names:
                continue
            for request in _requests.REQUESTS:
                specs.append({"id": f"producer/{device['name']}/{cell.name}/{request.id}",
                              "device": device["name"], "device_index": device["index"],
                              "cell": cell.name, "axis": cell.axis, "value": cell.value,
                              "request": {"id": request.id, "axis": request.axis,
                                          "value": request.value}})
    return specs


def cell_names():
    return [cell.name for cell in _cells.cells()]
