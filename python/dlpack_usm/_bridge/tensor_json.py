"""Reading the capsule-file form of a tensor (the bridge's answer): enum
names back to DLPack numbers, flags, addresses."""

DEVICE_TYPES = {
    "kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7,
    "kDLMetal": 8, "kDLVPI": 9, "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12,
    "kDLCUDAManaged": 13, "kDLOneAPI": 14, "kDLWebGPU": 15, "kDLHexagon": 16, "kDLMAIA": 17,
    "kDLTrn": 18,
}
KDL_CPU = 1
KDL_CUDA = 2
KDL_ONEAPI = 14


def flag_names(capsule):
    """The flags of a versioned capsule as names ("READ_ONLY", "IS_COPIED")."""
    flags = capsule.get("flags", "0")
    return [] if flags in ("0", 0) else str(flags).split("|")


def device(capsule):
    """(device_type, device_id) as DLPack numbers, or None when the body was
    not read."""
    tensor = capsule.get("dl_tensor")
    if tensor is None:
        return None
    kind = tensor["device"]["device_type"]
    return (DEVICE_TYPES.get(kind, kind) if isinstance(kind, str) else kind,
            tensor["device"]["device_id"])


def data_address(capsule):
    tensor = capsule.get("dl_tensor") or {}
    data = tensor.get("data")
    return int(data, 16) if data else 0


def version(capsule):
    value = capsule.get("version")
    return None if value is None else (value["major"], value["minor"])
