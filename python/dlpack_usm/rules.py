"""The Python-level rule catalog: checks of the DLPack Python protocol
(__dlpack__, __dlpack_device__, capsule names and ownership,
__sycl_usm_array_interface__, __dlpack_c_exchange_api__) that no C struct
can show. Same shape as `dlpack-usm rules`: a stable id, a title, the sentence
enforced, where it comes from, a severity, and the version where it applies.
Findings on the tensor itself come from the tool's own catalog through the
bridge."""

from dataclasses import dataclass

ARRAY_API = "Python array API standard 2024.12, array.__dlpack__"
INTERCHANGE = "Python array API standard 2024.12, data interchange (DLPack)"
DLPACK_13 = "dlpack.h 1.3, DLPackExchangeAPI"
SUAI_SEED = "seeds/002_af46dd48c05600c4.txt (SYCL USM array interface)"


@dataclass(frozen=True)
class PythonRule:
    id: str
    title: str
    severity: str  # "error", "warning", "info"
    since: str  # DLPack release or array API version where it applies
    source: str
    spec_text: str
    family: str = "python"


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: str
    field: str
    message: str

    def to_json(self):
        return {"rule_id": self.rule_id, "severity": self.severity, "field": self.field,
                "message": self.message}


CATALOG = (
    PythonRule("DLP-PY-CAPSULE-NAME", "__dlpack__ returned no DLPack tensor capsule", "error",
               "0.x", INTERCHANGE,
               "__dlpack__ returns a PyCapsule named \"dltensor\" (DLManagedTensor) or, since "
               "DLPack 1.0, \"dltensor_versioned\" (DLManagedTensorVersioned)."),
    PythonRule("DLP-PY-LEGACY-DEFAULT", "A consumer that passes no max_version got a versioned "
               "capsule", "error", "1.0", ARRAY_API,
               "if max_version is None: keep and use the DLPack 0.X implementation (or, from "
               "March 2025, raise BufferError); a consumer that passes no max_version can read "
               "only a \"dltensor\" capsule."),
    PythonRule("DLP-PY-VERSIONED-OFFERED", "max_version=(1, x) answered with a legacy capsule",
               "warning", "1.0", ARRAY_API,
               "This method may return a capsule of version max_version (recommended if it does "
               "support that), or of a different version."),
    PythonRule("DLP-PY-VERSION-ABOVE-MAX", "Capsule of a major version above max_version",
               "error", "1.0", ARRAY_API,
               "If the producer is at a higher major version than the consumer's max_version it "
               "exports the older major version or raises BufferError: the consumer cannot read "
               "a newer major version."),
    PythonRule("DLP-PY-KEYWORD-TYPEERROR", "An unsupported keyword argument did not raise "
               "TypeError", "error", "1.0", ARRAY_API,
               "Consumers call x.__dlpack__(max_version=(1, 0), ...) and fall back to "
               "x.__dlpack__(...) on TypeError; this logic is also applicable to handling of the "
               "new dl_device and copy keywords. Other refusals are BufferError."),
    PythonRule("DLP-PY-DL-DEVICE-FOREIGN", "dl_device of another device with copy=False neither "
               "refused nor honoured", "error", "1.0", ARRAY_API,
               "If the device type cannot be handled by the producer, this function must raise "
               "BufferError; if a copy must be made but copy is False, the function must raise "
               "BufferError."),
    PythonRule("DLP-PY-DL-DEVICE-OWN", "dl_device of the array's own device refused",
               "warning", "1.0", ARRAY_API,
               "dl_device follows the return value of __dlpack_device__; copy=False must never "
               "copy and raises BufferError only when a copy is deemed necessary, which it is not "
               "for the array's own device."),
    PythonRule("DLP-PY-COPY-FLAG", "copy=True without DLPACK_FLAG_BITMASK_IS_COPIED", "error",
               "1.0", ARRAY_API,
               "If True, the function must always copy (performed by the producer). When a copy "
               "happens, the DLPACK_FLAG_BITMASK_IS_COPIED flag must be set."),
    PythonRule("DLP-PY-NO-COPY-COPIED", "copy=False answered with a copy", "error", "1.0",
               ARRAY_API,
               "If False, the function must never copy, and raise a BufferError in case a copy is "
               "deemed necessary."),
    PythonRule("DLP-PY-STREAM-CPU", "A stream other than None accepted for a kDLCPU array",
               "error", "0.x", ARRAY_API,
               "On CPU and other device types without streams, only None is accepted."),
    PythonRule("DLP-PY-DEVICE-AGREES", "__dlpack_device__ disagrees with the tensor", "error",
               "0.x", ARRAY_API,
               "__dlpack_device__ returns a tuple (device_type, device_id) in DLPack format: the "
               "device of the tensor __dlpack__ exports."),
    PythonRule("DLP-PY-CONSUMER-RENAME", "A consumer did not rename the capsule it consumed",
               "error", "0.x", INTERCHANGE,
               "The consumer must rename the capsule to \"used_dltensor\" (\"used_dltensor_"
               "versioned\") when it takes ownership, so that the capsule's destructor does not "
               "free the tensor and the capsule cannot be consumed twice."),
    PythonRule("DLP-PY-CONSUMER-REUSE", "A consumer accepted a capsule already consumed",
               "error", "0.x", INTERCHANGE,
               "A capsule can be consumed only once: a consumer given a capsule named "
               "\"used_dltensor\" (\"used_dltensor_versioned\") must refuse it."),
    PythonRule("DLP-PY-SUAI-FIELD", "__sycl_usm_array_interface__ field missing or of the wrong "
               "type", "error", "0.x", SUAI_SEED,
               "The attribute returns a Python dictionary with the fields shape (tuple of "
               "integers), typestr (string), typedescr (a list of tuples), data ((int, bool)), "
               "strides (tuple), offset (int), version (int) and syclobj; data may be absent only "
               "when the object implements the buffer interface."),
    PythonRule("DLP-PY-SUAI-SYCLOBJ", "__sycl_usm_array_interface__ syclobj of no known form",
               "error", "0.x", SUAI_SEED,
               "syclobj is a filter selector string, a dpctl.SyclContext, a capsule named "
               "\"SyclContextRef\", a dpctl.SyclQueue, a capsule named \"SyclQueueRef\", or an "
               "object whose _get_capsule() produces such a capsule."),
    PythonRule("DLP-PY-SUAI-AGREES", "__sycl_usm_array_interface__ disagrees with the DLPack "
               "tensor", "error", "0.x", SUAI_SEED,
               "Both describe the same USM memory: shape, element type, address (data[0] plus "
               "offset elements), strides (in elements, as dpctl writes them) and read-only flag "
               "agree with the tensor __dlpack__ exports."),
    PythonRule("DLP-PY-EXCHANGE-API-CAPSULE", "__dlpack_c_exchange_api__ is not a capsule named "
               "\"dlpack_exchange_api\" on the type", "error", "1.3", DLPACK_13,
               "This attribute must be set on the type as a Python PyCapsule with name "
               "\"dlpack_exchange_api\"."),
    PythonRule("DLP-PY-EXCHANGE-API-VERSION", "DLPackExchangeAPI of an unknown major version",
               "warning", "1.3", DLPACK_13,
               "The consumer must check major version compatibility before using this struct; "
               "prev_api points to an older version or is NULL."),
    PythonRule("DLP-PY-EXCHANGE-API-NULL", "DLPackExchangeAPI function pointer is NULL", "error",
               "1.3", DLPACK_13,
               "managed_tensor_allocator, managed_tensor_from_py_object_no_sync, "
               "managed_tensor_to_py_object_no_sync and current_work_stream must not be NULL; "
               "dltensor_from_py_object_no_sync can be NULL."),
    PythonRule("DLP-PY-EXCHANGE-API-TENSOR", "managed_tensor_from_py_object_no_sync disagrees "
               "with __dlpack__", "error", "1.3", DLPACK_13,
               "managed_tensor_from_py_object_no_sync exports the object to an owning "
               "DLManagedTensorVersioned and returns 0; the tensor is the one __dlpack__ "
               "describes."),
)

_BY_ID = {rule.id: rule for rule in CATALOG}


def find_rule(rule_id):
    return _BY_ID.get(rule_id)


def finding(rule_id, field, message):
    """A finding of Python rule `rule_id` (which must be in CATALOG)."""
    return Finding(rule_id, _BY_ID[rule_id].severity, field, message)
