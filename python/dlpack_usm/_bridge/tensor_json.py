"""Reading the capsule-file form of a tensor (the bridge's answer): enum
names back to DLPack numbers (dlpack), flags, addresses."""

from . import dlpack


def flag_names(capsule):
    """The flags of a versioned capsule as names ("READ_ONLY", "IS_COPIED")."""
    flags = capsule.get("flags", "0")
    return [] if flags in ("0", 0) else str(flags).split("|")


def flags_value(capsule):
    """The flags of a capsule as the uint64_t they are: the capsule-file
    form names them ("READ_ONLY|0x40"), JSON for machines counts them."""
    value = 0
    for name in flag_names(capsule):
        value |= int(name, 0) if name[:1].isdigit() else dlpack.flag(name)
    return value


def device(capsule):
    """(device_type, device_id) as DLPack numbers, or None when the body was
    not read."""
    tensor = capsule.get("dl_tensor")
    if tensor is None:
        return None
    return dlpack.device_type(tensor["device"]["device_type"]), tensor["device"]["device_id"]


def data_address(capsule):
    tensor = capsule.get("dl_tensor") or {}
    data = tensor.get("data")
    return int(data, 16) if data else 0


def version(capsule):
    value = capsule.get("version")
    return None if value is None else (value["major"], value["minor"])
