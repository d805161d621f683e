"""The Python-level rule catalog: checks of the DLPack Python protocol
(__dlpack__, __dlpack_device__, capsule names and ownership,
__sycl_usm_array_interface__, __dlpack_c_exchange_api__) that no C struct
can show. Same shape as `dlpack-usm rules`: a stable id, a title, a severity,
the version where it applies, the public reference, the normative word the
rule rests on ("heuristic" for the tool's own judgement), the quoted sentence
and the tool's reasoning apart from it. Severity follows the word: an error
only where the quote says must (or shall, can not, required), at most a
warning for should and for heuristics. Findings on the tensor itself come
from the tool's own catalog through the bridge."""

from dataclasses import dataclass

ARRAY_API = ("Python array API standard 2024.12, array.__dlpack__ (https://data-apis.org/"
             "array-api/2024.12/API_specification/generated/array_api.array.__dlpack__.html)")
ARRAY_API_DEVICE = ("Python array API standard 2024.12, array.__dlpack_device__ (https://"
                    "data-apis.org/array-api/2024.12/API_specification/generated/"
                    "array_api.array.__dlpack_device__.html)")
PYTHON_SPEC = ("DLPack documentation, Python Specification for DLPack "
               "(https://dmlc.github.io/dlpack/latest/python_spec.html)")
EXCHANGE_API = "dlpack.h 1.3, DLPackExchangeAPI"
DLTENSOR_STRIDES = "dlpack.h 1.3, DLTensor::strides"
SUAI = ("dpctl documentation, __sycl_usm_array_interface__ attribute (https://intelpython.github.io/"
        "dpctl/latest/api_reference/dpctl/sycl_usm_array_interface.html)")

# The words a quote may rest on, by the highest severity they allow.
MUST_WORDS = ("must", "must not", "shall", "can not", "required")
SHOULD_WORDS = ("should", "recommended", "deprecated")
HEURISTIC = "heuristic"


@dataclass(frozen=True)
class PythonRule:
    id: str
    title: str
    severity: str  # "error", "warning", "info"
    since: str  # DLPack release or array API version where it applies
    reference: str
    normative: str
    quote: str
    rationale: str
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
               "0.x", PYTHON_SPEC, "must",
               "The producer must set the PyCapsule name to \"dltensor\" so that it can be "
               "inspected by name",
               "Since DLPack 1.0 a DLManagedTensorVersioned goes in a capsule named "
               "\"dltensor_versioned\"; any other name is no DLPack tensor."),
    PythonRule("DLP-PY-LEGACY-DEFAULT", "A consumer that passes no max_version got a versioned "
               "capsule", "warning", "1.0", ARRAY_API, "recommended",
               "It is recommended for the producer to use this logic in the implementation of "
               "__dlpack__:",
               "The logic keeps the DLPack 0.X implementation when max_version is None (or, from "
               "March 2025, raises BufferError): such a consumer can read only a \"dltensor\" "
               "capsule."),
    PythonRule("DLP-PY-VERSIONED-OFFERED", "max_version=(1, x) answered with a legacy capsule",
               "warning", "1.0", ARRAY_API, "recommended",
               "This method may return a capsule of version max_version (recommended if it does "
               "support that), or of a different version.",
               "A producer that supports 1.x should answer max_version=(1, x) with it."),
    PythonRule("DLP-PY-VERSION-ABOVE-MAX", "Capsule of a major version above max_version",
               "warning", "1.0", ARRAY_API, "should",
               "Else, the producer should raise a BufferError here to tell users that the "
               "consumer's max_version is too old to allow the data exchange to happen.",
               "A consumer cannot read a newer major version than its max_version: neither a "
               "2.x tensor asked for with max_version=(1, x), nor a \"dltensor_versioned\" "
               "capsule (1.x) asked for with max_version=(0, x), which a producer comparing "
               "max_version the wrong way round gives."),
    PythonRule("DLP-PY-CAPSULE-DESTRUCTOR", "A tensor capsule with a deleter but no capsule "
               "destructor", "error", "0.x", PYTHON_SPEC, "must",
               "The producer must set the PyCapsule name to \"dltensor\" so that it can be "
               "inspected by name, and set PyCapsule_Destructor that calls the deleter of the "
               "DLManagedTensor when the \"dltensor\"-named capsule is no longer needed.",
               "PyCapsule_GetDestructor returns NULL for a capsule whose tensor has a deleter: a "
               "capsule dropped unconsumed (a consumer that raised, a probe) never calls it, and "
               "the tensor leaks. A NULL deleter has nothing to call."),
    PythonRule("DLP-PY-READ-ONLY-LEGACY", "A read-only array exported as a legacy capsule",
               "warning", "1.0", ARRAY_API, HEURISTIC,
               "DLPack 1.0 added a flag to indicate that the array is read-only "
               "(DLPACK_FLAG_BITMASK_READ_ONLY).",
               "The versioned export says READ_ONLY, yet __dlpack__() or "
               "__dlpack__(max_version=(0, x)) hands the same array out as a \"dltensor\" "
               "capsule, whose DLManagedTensor has no flags: its consumer may write into it. "
               "numpy raises BufferError instead."),
    PythonRule("DLP-PY-EXPORT-RAISED", "__dlpack__ raised instead of exporting", "warning",
               "0.x", ARRAY_API, HEURISTIC,
               "Exports the array for consumption by from_dlpack() as a DLPack capsule.",
               "The tool asked as a consumer does (with max_version, then without) and got an "
               "exception other than BufferError, the protocol's refusal: there is no tensor to "
               "check. SystemExit and KeyboardInterrupt count too: raised from __dlpack__, they "
               "end the consumer's program."),
    PythonRule("DLP-PY-MEMORY-UNREADABLE", "The capsule's tensor, shape or strides is not "
               "readable memory", "error", "0.x", DLTENSOR_STRIDES, "must",
               "must points to an array of ndim elements that specifies the strides, so consumer "
               "can always rely on strides[dim] being valid for 0 <= dim < ndim.",
               "A consumer reads the struct the capsule carries, then ndim entries of shape and "
               "strides; the tool reads them page-guarded and finds memory that cannot be read, "
               "where a consumer would crash. The header says it for strides; the struct and "
               "shape are read the same way."),
    PythonRule("DLP-PY-KEYWORD-TYPEERROR", "An unsupported keyword argument did not raise "
               "TypeError", "warning", "1.0", ARRAY_API, HEURISTIC,
               "This logic is also applicable to handling of the new dl_device and copy keywords.",
               "Consumers call x.__dlpack__(max_version=(1, 0), ...) and fall back to "
               "x.__dlpack__(...) on TypeError; another exception breaks the fallback."),
    PythonRule("DLP-PY-DL-DEVICE-FOREIGN", "dl_device of another device with copy=False neither "
               "refused nor honoured", "error", "1.0", ARRAY_API, "must",
               "If the device type cannot be handled by the producer, this function must raise "
               "BufferError.",
               "With copy=False a copy to another device is not possible either, so the answer "
               "is BufferError or a capsule on the device asked for."),
    PythonRule("DLP-PY-DL-DEVICE-OWN", "dl_device of the array's own device refused",
               "warning", "1.0", ARRAY_API, "should",
               "Default is None, meaning the exported capsule should be on the same device as "
               "self is.",
               "Naming the array's own device asks for what the default gives; no copy is "
               "needed, so refusing it is unexpected."),
    PythonRule("DLP-PY-COPY-FLAG", "copy=True without DLPACK_FLAG_BITMASK_IS_COPIED", "error",
               "1.0", ARRAY_API, "must",
               "When a copy happens, the DLPACK_FLAG_BITMASK_IS_COPIED flag must be set.",
               "copy=True makes the producer copy, so the flag is due."),
    PythonRule("DLP-PY-NO-COPY-COPIED", "copy=False answered with a copy", "error", "1.0",
               ARRAY_API, "must",
               "If False, the function must never copy, and raise a BufferError in case a copy is "
               "deemed necessary (e.g. if a cross-device data movement is requested, and it is "
               "not possible without a copy).",
               "A capsule with IS_COPIED set answering copy=False is a copy."),
    PythonRule("DLP-PY-STREAM-CPU", "A stream other than None accepted for a kDLCPU array",
               "warning", "0.x", ARRAY_API, HEURISTIC,
               "On CPU and other device types without streams, only None is accepted.",
               "The standard describes what is accepted without a must; a producer that accepts "
               "another value hides a consumer's mistake."),
    PythonRule("DLP-PY-STREAM-CUDA-ZERO", "stream=0 accepted for a CUDA array", "warning",
               "0.x", ARRAY_API, HEURISTIC,
               "0 is disallowed due to its ambiguity: 0 could mean either None, 1, or 2.",
               "The standard disallows the value without a must on the producer; a producer "
               "that takes 0 guesses which stream the consumer meant and hides the consumer's "
               "mistake. Checked for kDLCUDA and kDLCUDAManaged arrays."),
    PythonRule("DLP-PY-STREAM-CUDA-REFUSED", "A stream value the standard defines for CUDA "
               "refused", "info", "0.x", ARRAY_API, HEURISTIC,
               "Support for a stream value other than None is optional and "
               "implementation-dependent.",
               "Worth knowing, not a defect: which of -1 (no synchronisation), 1 (legacy default "
               "stream), 2 (per-thread default stream) and a stream pointer of the array's "
               "device the producer refuses; a consumer that passes one gets no tensor."),
    PythonRule("DLP-PY-DEVICE-AGREES", "__dlpack_device__ disagrees with the tensor", "warning",
               "0.x", ARRAY_API_DEVICE, HEURISTIC,
               "Returns device type and device ID in DLPack format.",
               "__dlpack_device__ describes the device of the tensor __dlpack__ exports; a "
               "consumer that trusts it passes the wrong stream or device."),
    PythonRule("DLP-PY-CONSUMER-RENAME", "A consumer did not rename the capsule it consumed",
               "error", "0.x", PYTHON_SPEC, "must",
               "The consumer must transer ownership of the DLManagedTensor from the capsule to "
               "its own object.",
               "It does so by renaming the capsule to \"used_dltensor\" "
               "(\"used_dltensor_versioned\"), so that the capsule's destructor does not free "
               "the tensor."),
    PythonRule("DLP-PY-CONSUMER-REUSE", "A consumer accepted a capsule already consumed",
               "warning", "0.x", PYTHON_SPEC, HEURISTIC,
               "therefore it is consumed exactly once, and it will not be visible to users of the "
               "Python API.",
               "A capsule named \"used_dltensor\" (\"used_dltensor_versioned\") belongs to "
               "another consumer already; taking it again frees the tensor twice."),
    PythonRule("DLP-PY-SUAI-FIELD", "__sycl_usm_array_interface__ field missing or of the wrong "
               "type", "warning", "0.x", SUAI, HEURISTIC,
               "by providing __sycl_usm_array_interface__ attribute describing the allocation in "
               "a Python dictionary with the following fields:",
               "The fields: shape (tuple of integers), typestr (string), data ((int, bool)), "
               "strides (optional tuple), offset (optional int), syclobj and version (1); the "
               "page describes them without a must."),
    PythonRule("DLP-PY-SUAI-SYCLOBJ", "__sycl_usm_array_interface__ syclobj of no known form",
               "warning", "0.x", SUAI, HEURISTIC,
               "Python object from which SYCL context to which represented USM allocation is "
               "bound.",
               "The page lists the forms: a filter selector string, a dpctl.SyclContext, a "
               "capsule named \"SyclContextRef\", a dpctl.SyclQueue, a capsule named "
               "\"SyclQueueRef\", or an object whose _get_capsule() returns such a capsule."),
    PythonRule("DLP-PY-SUAI-AGREES", "__sycl_usm_array_interface__ disagrees with the DLPack "
               "tensor", "warning", "0.x", SUAI, HEURISTIC,
               "A 2-tuple whose first element is a Python integer encoding USM pointer value.",
               "Both describe the same USM memory: shape, element type, address (data[0] plus "
               "offset elements), strides (in elements) and read-only flag agree with the tensor "
               "__dlpack__ exports."),
    PythonRule("DLP-PY-EXCHANGE-API-CAPSULE", "__dlpack_c_exchange_api__ is not a capsule named "
               "\"dlpack_exchange_api\" on the type", "error", "1.3", EXCHANGE_API, "must",
               "This attribute must be set on the type as a Python PyCapsule with name "
               "\"dlpack_exchange_api\".",
               "Consumers look the attribute up on the type and open the capsule by that name."),
    PythonRule("DLP-PY-EXCHANGE-API-VERSION", "DLPackExchangeAPI of an unknown major version",
               "warning", "1.3", EXCHANGE_API, "must",
               "The provided DLPack version the consumer must check major version compatibility "
               "before using this struct.",
               "A consumer of this major version cannot use the table; prev_api may point to an "
               "older one."),
    PythonRule("DLP-PY-EXCHANGE-API-NULL", "DLPackExchangeAPI function pointer is NULL", "error",
               "1.3", EXCHANGE_API, "must", "This function must not be NULL.",
               "managed_tensor_allocator must not be NULL; managed_tensor_from_py_object_no_sync, "
               "managed_tensor_to_py_object_no_sync and current_work_stream \"must be not "
               "NULL\"; only dltensor_from_py_object_no_sync can be NULL."),
    PythonRule("DLP-PY-EXCHANGE-API-READABLE", "The DLPackExchangeAPI table is not readable "
               "memory", "error", "1.3", EXCHANGE_API, "must",
               "The DLPackExchangeAPI* must stay alive throughout the lifetime of the process.",
               "The capsule's pointer leads to memory the tool cannot read (read page-guarded): "
               "the table is gone or never was, and a consumer calling through it crashes."),
    PythonRule("DLP-PY-EXCHANGE-API-TENSOR", "managed_tensor_from_py_object_no_sync disagrees "
               "with __dlpack__", "warning", "1.3", EXCHANGE_API, HEURISTIC,
               "Producer function pointer for DLPackManagedTensorFromPyObject",
               "managed_tensor_from_py_object_no_sync exports the object to an owning "
               "DLManagedTensorVersioned; the tool expects the tensor __dlpack__ describes."),
)

_BY_ID = {rule.id: rule for rule in CATALOG}


def find_rule(rule_id):
    return _BY_ID.get(rule_id)


def finding(rule_id, field, message):
    """A finding of Python rule `rule_id` (which must be in CATALOG)."""
    return Finding(rule_id, _BY_ID[rule_id].severity, field, message)
