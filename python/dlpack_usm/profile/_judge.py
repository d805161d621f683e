"""The verdict on one answer of a producer: what __dlpack__(**keywords)
gave for one array of the profile, judged by the rules `check` applies
(producer._protocol's judges and the tensor rules the bridge runs on the
capsule), as an outcome of the producer direction:

  emitted          a capsule that passes the rules (status pass or warn)
  emitted-invalid  a capsule with an error finding of the tensor's rules
  refused          an exception for a request the producer may refuse
                   (not_supported; a rule that frowns on the refusal makes
                   it warn)
  wrong            the wrong exception where the standard names one, or a
                   capsule other than asked for (warn or fail, per the rule)"""

from .._bridge import capsules, dlpack, tensor_json
from .._bridge.errors import BridgeError, UnreadableTensor
from ..producer import _copy_oracle, _cuda, _protocol
from ..producer._inspect import inspect_capsule, read_capsule

# Rules that say an answer is not what was asked for (another version,
# device or copy behaviour than the keywords ask), rather than a bad tensor.
REQUEST_RULES = frozenset((
    "DLP-PY-LEGACY-DEFAULT", "DLP-PY-VERSION-ABOVE-MAX", "DLP-PY-VERSIONED-OFFERED",
    "DLP-PY-DL-DEVICE-FOREIGN", "DLP-PY-DL-DEVICE-OWN", "DLP-PY-COPY-FLAG",
    "DLP-PY-NO-COPY-COPIED", "DLP-PY-COPY-NONE-COPIED", "DLP-PY-COPIED-FLAG-SHARED",
    "DLP-PY-STREAM-CPU", "DLP-PY-STREAM-CUDA-ZERO"))
# Rules that name the exception a refusal should raise.
EXCEPTION_RULES = frozenset(("DLP-PY-KEYWORD-TYPEERROR", "DLP-PY-DECLINE-CLASS"))
STATUS_OF = {"error": "fail", "warning": "warn", "info": "pass"}


def request_findings(request, keywords, capsule, error, base, origin):
    """The findings of the request's own rules on the answer; `base` is the
    Inspection of the array's answer to the base request (None where it
    gave none: what needs it is not judged)."""
    if request.axis == "max_version":
        if "copy" in keywords and base is not None:
            return _copy_oracle.judge(capsule, error, keywords, base, origin)
        if "max_version" not in keywords or keywords["max_version"][0] < 1:
            return _protocol.judge_legacy(capsule, error, keywords, base, origin)
        return _protocol.judge_versioned(capsule, error, keywords["max_version"], origin)[0]
    if base is None:
        return []
    if request.axis in ("dl_device", "copy"):
        return _copy_oracle.judge(capsule, error, keywords, base, origin)
    own = tensor_json.device(base.capsule)
    if dlpack.on(own, "kDLCPU"):
        return _protocol.judge_stream_on_cpu(capsule, error, keywords)
    if dlpack.on(own, *_cuda.STREAM_DEVICE_TYPES):
        return _cuda.judge_stream(keywords, error)
    return []


def _in_allocation(capsule, base):
    """Whether the tensor of `capsule` starts in the allocation the runtime
    facts of the array's own export (`base`) describe; True where they say
    none."""
    runtime = base.capsule.get("runtime") or {}
    if "alloc_base" not in runtime or "alloc_size" not in runtime:
        return True
    start = int(runtime["alloc_base"], 16)
    address = tensor_json.data_address(capsule) + \
        int((capsule.get("dl_tensor") or {}).get("byte_offset") or 0)
    return start <= address <= start + int(runtime["alloc_size"])


def read(obj, capsule, origin, base=None):
    """(Inspection or None, findings) of a returned capsule: the tensor
    rules' findings, its destructor's, or why it is no tensor to read. The
    runtime facts of the array's allocation are those of a tensor in it; a
    copy elsewhere (copy=True, another device) is read without them."""
    try:
        if base is not None and not _in_allocation(read_capsule(capsule, origin).capsule, base):
            obj = None
        inspection = inspect_capsule(obj, capsule, origin)
    except UnreadableTensor as unreadable:
        return None, [_protocol.unreadable_finding(unreadable)]
    except BridgeError as error:
        if error.exit_code != 1:
            raise
        return None, [_protocol.name_finding(capsule, {})]
    return inspection, list(inspection.findings) + \
        _protocol.destructor_findings(capsule, inspection, {})


def worst_status(findings, default):
    """The status of the worst finding (error: fail, warning: warn), else `default`."""
    for severity in ("error", "warning"):
        if any(item.severity == severity for item in findings):
            return STATUS_OF[severity]
    return default


def refusal(error, findings):
    """(outcome, status) of an exception: wrong where a rule names another
    exception, else refused (a rule that frowns on it makes it warn)."""
    judged = [item for item in findings if item.severity in ("error", "warning")]
    if any(item.rule_id in EXCEPTION_RULES for item in judged):
        return "wrong", worst_status(judged, "warn")
    return "refused", worst_status(judged, "not_supported")


def emission(findings):
    """(outcome, status) of a capsule and the findings on it."""
    judged = [item for item in findings if item.severity in ("error", "warning")]
    if any(item.severity == "error" and item.rule_id not in REQUEST_RULES for item in judged):
        return "emitted-invalid", "fail"
    if any(item.rule_id in REQUEST_RULES for item in judged):
        return "wrong", worst_status(judged, "warn")
    return "emitted", worst_status(judged, "pass")


def unique(findings):
    """The findings without repeats (a judge and the reader may both see a
    capsule's missing destructor)."""
    seen, kept = set(), []
    for item in findings:
        key = (item.rule_id, item.field, item.message)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def emitted(inspection, capsule):
    """What a capsule carried, as the report keeps it: its name, version,
    flags, device, dtype, shape, strides as given (None: compact rows) and
    byte_offset; the data address is left out (it differs run to run)."""
    if inspection is None:
        return {"capsule": capsules.capsule_name(capsule) if capsules.is_capsule(capsule)
                else type(capsule).__name__}
    body = inspection.capsule.get("dl_tensor") or {}
    version = tensor_json.version(inspection.capsule)
    return {"capsule": inspection.capsule_name,
            "version": None if version is None else f"{version[0]}.{version[1]}",
            "flags": tensor_json.flag_names(inspection.capsule),
            "device": body.get("device"), "dtype": body.get("dtype"),
            "shape": body.get("shape"), "strides": body.get("strides"),
            "byte_offset": body.get("byte_offset")}


def summary_text(record):
    """"dltensor_versioned 1.3, strides [5, 1], READ_ONLY": an emitted
    capsule in a few words, for tables and tooltips."""
    emitted = record.get("emitted")
    if not emitted:
        return ""
    words = [emitted["capsule"] + (f" {emitted['version']}" if emitted.get("version") else "")]
    if "strides" in emitted:
        strides = emitted["strides"]
        words.append("strides NULL" if strides is None else f"strides {strides}")
    if emitted.get("byte_offset"):
        words.append(f"byte_offset {emitted['byte_offset']}")
    device = emitted.get("device")
    if device:
        words.append(f"{device['device_type']}:{device['device_id']}")
    words += emitted.get("flags") or []
    return ", ".join(words)
