"""The cases of a Python consumer check, from the bridge's matrix, laid out
as `dlpack-usm check --consumer` lays them out: every version cell on every
USM kind of every root device, the dtype and layout cells and the invalid
ones on the first kind a device has (device USM where it can); and the same
on plain host memory (kDLCPU), which host-only consumers can take."""

CPU = "cpu"
# The invalid cells that break a rule of USM pointers or kDLOneAPI device
# ids have no kDLCPU form.
USM_ONLY = ("separate-context", "unknown-pointer", "oneapi-device-id-range")


def _profile_place(cell, memory, first):
    """(axis, value) of a cell in the capability profile, named as
    `dlpack-usm check --consumer` names them: the newest version cell stands
    for its memory ("cpu", or "device-usm" on the usm-kind axis); the other
    versions are named as they are on the first kind, and with their kind
    ("1.0/host-usm") on the others."""
    axis = cell["axis"]
    if axis == "version":
        kind = memory if memory == CPU else f"{memory}-usm"
        if cell["name"] == "c-order":
            return ("memory", CPU) if memory == CPU else ("usm-kind", kind)
        if memory == first:
            return "version", cell["version"]
        return "version", f"{cell['version']}/{kind}"
    if axis == "dtype":
        return "dtype", cell["dtype"]
    return axis, cell["name"]


def _spec(device, device_id, memory, group, cell, features, first=CPU):
    axis, value = _profile_place(cell, memory, first)
    features = sorted(set(features))
    return {"id": f"consumer/{device}/{group}/{cell['name']}", "device": device,
            "device_id": device_id, "memory": memory, "axis": axis, "value": value,
            "cell": cell, "features": features}


def cases(matrix, devices=None):
    """The case specs; `devices` (names, "cpu" among them) keeps those only."""
    specs = []
    cells = matrix["cells"]

    def wanted(name):
        return devices is None or name in devices

    if wanted(CPU):
        for cell in cells:
            if cell["name"] in USM_ONLY:
                continue
            features = list(cell["features"]) + ([CPU] if cell["axis"] == "version" else [])
            group = "invalid" if not cell["valid"] else CPU
            specs.append(_spec(CPU, 0, CPU, group, cell, features))
    for device in matrix["devices"]:
        if not wanted(device["name"]):
            continue
        first = device["first_kind"]
        for kind in device["kinds"]:
            for cell in cells:
                if cell["axis"] == "version":
                    specs.append(_spec(device["name"], device["device_id"], kind, kind, cell,
                                       cell["features_by_kind"][kind], first))
        for cell in cells:
            if cell["axis"] in ("dtype", "layout"):
                specs.append(_spec(device["name"], device["device_id"], first, first, cell,
                                   cell["features"], first))
            elif cell["axis"] == "invalid":
                specs.append(_spec(device["name"], device["device_id"], first, "invalid", cell,
                                   [], first))
    return specs


def device_names(matrix):
    return [CPU] + [device["name"] for device in matrix["devices"]]


def features(specs):
    """Every feature name a case carries, for --require."""
    return sorted({name for spec in specs for name in spec["features"]})
