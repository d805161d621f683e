// Python family: the DLPack protocol as Python objects speak it
// (__dlpack__, __dlpack_device__, capsule names and ownership,
// __sycl_usm_array_interface__, __dlpack_c_exchange_api__, and what a
// consumer raises when it declines), which no C struct can show. The Python
// package (python/dlpack_usm) judges them and reads this catalog through
// the bridge, so that every rule has one home; its tests hold their failing
// and passing producers and consumers (python/tests/producers.py,
// consumers.py, tests/data/consumer_observations.json).
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kArrayApiDlpack =
    "Python array API standard 2024.12, array.__dlpack__ (https://data-apis.org/array-api/"
    "2024.12/API_specification/generated/array_api.array.__dlpack__.html)";
constexpr std::string_view kArrayApiFromDlpack =
    "Python array API standard 2024.12, from_dlpack (https://data-apis.org/array-api/2024.12/"
    "API_specification/generated/array_api.from_dlpack.html)";
constexpr std::string_view kArrayApiDlpackDevice =
    "Python array API standard 2024.12, array.__dlpack_device__ (https://data-apis.org/"
    "array-api/2024.12/API_specification/generated/array_api.array.__dlpack_device__.html)";
constexpr std::string_view kPythonSpecPage =
    "DLPack documentation, Python Specification for DLPack "
    "(https://dmlc.github.io/dlpack/latest/python_spec.html)";
// The sentence the stream contract rests on, for producers and consumers alike.
constexpr std::string_view kConsumerPassesStream =
    "The consumer must pass the stream it will use to the producer; the producer must "
    "synchronize or wait on the stream when necessary.";
constexpr std::string_view kIsCopiedDefinition = "dlpack.h 1.3, DLPACK_FLAG_BITMASK_IS_COPIED";
constexpr std::string_view kExchangeApiHeader = "dlpack.h 1.3, DLPackExchangeAPI";
constexpr std::string_view kSuaiPage =
    "dpctl documentation, __sycl_usm_array_interface__ attribute (https://intelpython.github.io/"
    "dpctl/latest/api_reference/dpctl/sycl_usm_array_interface.html)";

constexpr std::array kPythonRules{
    RuleDefinition{{"DLP-PY-CAPSULE-NAME", "python", "__dlpack__ returned no DLPack tensor capsule",
                    Severity::error, kFirstRelease, std::nullopt, kPythonSpecPage, "must",
                    "The producer must set the PyCapsule name to \"dltensor\" so that it can be "
                    "inspected by name",
                    "Since DLPack 1.0 a DLManagedTensorVersioned goes in a capsule named "
                    "\"dltensor_versioned\"; any other name is no DLPack tensor."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-LEGACY-DEFAULT", "python",
         "A consumer that passes no max_version got a versioned capsule", Severity::warning,
         dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "recommended",
         "It is recommended for the producer to use this logic in the implementation of "
         "__dlpack__:",
         "The logic keeps the DLPack 0.X implementation when max_version is None (or, "
         "from March 2025, raises BufferError): such a consumer can read only a "
         "\"dltensor\" capsule."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-VERSIONED-OFFERED", "python", "max_version=(1, x) answered with a legacy capsule",
         Severity::warning, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "recommended",
         "This method may return a capsule of version max_version (recommended if it "
         "does support that), or of a different version.",
         "A producer that supports 1.x should answer max_version=(1, x) with it."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-VERSION-ABOVE-MAX", "python", "Capsule of a major version above max_version",
         Severity::warning, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "should",
         "Else, the producer should raise a BufferError here to tell users that the "
         "consumer's max_version is too old to allow the data exchange to happen.",
         "A consumer cannot read a newer major version than its max_version: neither a "
         "2.x tensor asked for with max_version=(1, x), nor a \"dltensor_versioned\" "
         "capsule (1.x) asked for with max_version=(0, x), which a producer comparing "
         "max_version the wrong way round gives."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CAPSULE-DESTRUCTOR", "python",
         "A tensor capsule with a deleter but no capsule destructor", Severity::error,
         kFirstRelease, std::nullopt, kPythonSpecPage, "must",
         "The producer must set the PyCapsule name to \"dltensor\" so that it can be "
         "inspected by name, and set PyCapsule_Destructor that calls the deleter of the "
         "DLManagedTensor when the \"dltensor\"-named capsule is no longer needed.",
         "PyCapsule_GetDestructor returns NULL for a capsule whose tensor has a deleter: "
         "a capsule dropped unconsumed (a consumer that raised, a probe) never calls it, "
         "and the tensor leaks. A NULL deleter has nothing to call."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-READ-ONLY-LEGACY", "python", "A read-only array exported as a legacy capsule",
         Severity::warning, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "convention",
         "DLPack 1.0 added a flag to indicate that the array is read-only "
         "(DLPACK_FLAG_BITMASK_READ_ONLY).",
         "The versioned export says READ_ONLY, yet __dlpack__() or "
         "__dlpack__(max_version=(0, x)) hands the same array out as a \"dltensor\" "
         "capsule, whose DLManagedTensor has no flags: its consumer may write into it. "
         "numpy raises BufferError instead."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-EXPORT-RAISED", "python",
         "__dlpack__ refused an array whose elements DLPack can describe", Severity::warning,
         kFirstRelease, std::nullopt, kArrayApiDlpack, "convention",
         "Exports the array for consumption by from_dlpack() as a DLPack capsule.",
         "A producer may decline any export (BufferError, or another error \"when export "
         "fails for other reasons\"), and a decline is no failure. But where the array's "
         "own __array_interface__, __cuda_array_interface__ or "
         "__sycl_usm_array_interface__ shows elements DLPack can describe (a dtype it "
         "has, strides in whole elements), refusing them is a warning. SystemExit and "
         "KeyboardInterrupt count too: raised from __dlpack__, they end the consumer's "
         "program."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-MEMORY-UNREADABLE", "python",
         "The capsule's tensor, shape or strides is not readable memory", Severity::error,
         kFirstRelease, std::nullopt, kStridesReference, "must",
         "must points to an array of ndim elements that specifies the strides, so "
         "consumer can always rely on strides[dim] being valid for 0 <= dim < ndim.",
         "A consumer reads the struct the capsule carries, then ndim entries of shape "
         "and strides; the tool reads them page-guarded and finds memory that cannot be "
         "read, where a consumer would crash. The header says it for strides; the struct "
         "and shape are read the same way."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-KEYWORD-TYPEERROR", "python",
                    "An unsupported keyword argument did not raise TypeError", Severity::warning,
                    dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "convention",
                    "This logic is also applicable to handling of the new dl_device and copy "
                    "keywords.",
                    "Consumers call x.__dlpack__(max_version=(1, 0), ...) and fall back to "
                    "x.__dlpack__(...) on TypeError; another exception breaks the fallback."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-DL-DEVICE-FOREIGN", "python",
         "dl_device of another device ignored: a capsule on the array's own device",
         Severity::error, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "must",
         "If the device type cannot be handled by the producer, this function must raise "
         "BufferError.",
         "The answer is a capsule on the device asked for or a decline; a capsule on the "
         "array's own device hands the consumer memory it cannot use where it asked for "
         "another. A decline with another exception than BufferError is DLP-PY-DECLINE-CLASS, "
         "a warning: a library may decline any request."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-DL-DEVICE-OWN", "python", "dl_device of the array's own device refused",
         Severity::warning, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "should",
         "Default is None, meaning the exported capsule should be on the same device as "
         "self is.",
         "Naming the array's own device asks for what the default gives; no copy is "
         "needed, so refusing it is unexpected."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-COPY-FLAG", "python", "copy=True without DLPACK_FLAG_BITMASK_IS_COPIED",
                    Severity::error, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "must",
                    "When a copy happens, the DLPACK_FLAG_BITMASK_IS_COPIED flag must be set.",
                    "copy=True makes the producer copy, so the flag is due."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-NO-COPY-COPIED", "python", "copy=False answered with a copy", Severity::error,
         dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "must",
         "If False, the function must never copy, and raise a BufferError in case a copy "
         "is deemed necessary (e.g. if a cross-device data movement is requested, and it "
         "is not possible without a copy).",
         "A capsule with IS_COPIED set answering copy=False is a copy."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-COPY-NONE-COPIED", "python",
         "copy=None answered with a copy where the array's memory could be reused", Severity::error,
         dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "must",
         "If None, the function must reuse the existing memory buffer if possible and copy "
         "otherwise.",
         "Judged only where reuse is shown possible: the same array's answer to the base "
         "request (copy=None, no dl_device) viewed its own memory, and dl_device named the "
         "array's own device."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-COPIED-FLAG-SHARED", "python",
                    "DLPACK_FLAG_BITMASK_IS_COPIED set on the array's own memory", Severity::error,
                    dlpack::Release{1, 0}, std::nullopt, kIsCopiedDefinition, "definition",
                    "If set, the tensor is considered solely owned throughout its lifetime by the "
                    "consumer, until the producer-provided deleter is invoked.",
                    "A capsule that views the array's own memory is not solely the consumer's: a "
                    "consumer that trusts the flag writes into the producer's array."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-DECLINE-CLASS", "python",
         "A copy or device request declined with another exception than BufferError",
         Severity::warning, dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "should",
         "Implementations should raise BufferError when the data cannot be exported as DLPack "
         "(e.g., incompatible dtype or strides).",
         "The dl_device and copy keywords name BufferError for what cannot be served (\"If "
         "the device type cannot be handled by the producer, this function must raise "
         "BufferError.\"); a library may decline any request, so another exception class "
         "is a warning: a consumer that catches BufferError to fall back (a copy through "
         "host memory) sees a crash instead. TypeError stays clean: the producer does not "
         "take the keyword."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-CONSUMER-COPY-SHARED", "python",
                    "from_dlpack(copy=True) returned a view of the producer's memory",
                    Severity::error, dlpack::Release{1, 0}, std::nullopt, kArrayApiFromDlpack,
                    "must", "If True, the function must always copy.",
                    "The consumer neither asked __dlpack__ for a copy (copy=True) nor let the "
                    "producer's tensor go while its result lived: the result shares the producer's "
                    "memory, and a write to either shows in the other."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-NO-COPY-COPIED", "python", "from_dlpack(copy=False) made a copy",
         Severity::error, dlpack::Release{1, 0}, std::nullopt, kArrayApiFromDlpack, "must",
         "If False, the function must never copy, and raise BufferError in case a copy is "
         "deemed necessary",
         "The consumer asked __dlpack__ for copy=True, or let the producer's tensor go while "
         "its result lived (it copied the elements and released the original)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-STREAM-CPU", "python", "A stream other than None accepted for a kDLCPU array",
         Severity::warning, kFirstRelease, std::nullopt, kArrayApiDlpack, "convention",
         "On CPU and other device types without streams, only None is accepted.",
         "The standard describes what is accepted without a must; a producer that "
         "accepts another value hides a consumer's mistake."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-STREAM-CUDA-ZERO", "python", "stream=0 accepted for a CUDA array",
                    Severity::warning, kFirstRelease, std::nullopt, kArrayApiDlpack, "convention",
                    "0 is disallowed due to its ambiguity: 0 could mean either None, 1, or 2.",
                    "The standard disallows the value without a must on the producer; a producer "
                    "that takes 0 guesses which stream the consumer meant and hides the consumer's "
                    "mistake. Checked for kDLCUDA and kDLCUDAManaged arrays."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-STREAM-CUDA-REFUSED", "python",
                    "A stream value the standard defines for CUDA refused", Severity::info,
                    kFirstRelease, std::nullopt, kArrayApiDlpack, "heuristic",
                    "Support for a stream value other than None is optional and "
                    "implementation-dependent.",
                    "Worth knowing, not a defect: which of -1 (no synchronisation), 1 (legacy "
                    "default stream), 2 (per-thread default stream) and a stream pointer of the "
                    "array's device the producer refuses; a consumer that passes one gets no "
                    "tensor."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-STREAM-RACE", "python",
         "Elements not ready on the stream the consumer passed to __dlpack__", Severity::error,
         kFirstRelease, std::nullopt, kPythonSpecPage, "must", kConsumerPassesStream,
         "The tool stands for a consumer: it has the library enqueue slow work ending in a "
         "write of known values on the library's own stream or queue, calls __dlpack__ with "
         "its own stream (CUDA: None, 1, 2 and a stream it created; SYCL: a dpctl.SyclQueue "
         "of its own, out of order, as dpctl and dpnp take one: \"Execution queue to "
         "synchronize with.\") and reads the elements on that stream at once. Elements that "
         "differ from what they hold once the device is idle are stale: the producer did not "
         "order its write before the consumer's work. Reported only where stale elements were "
         "read, with how many of the attempts read them; a clean run proves no "
         "synchronisation, it only saw no race. stream=-1 asks for no synchronisation and is "
         "recorded, never judged."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-STREAM-CPU-SYNC", "python",
                    "dl_device=kDLCPU export not ready when __dlpack__ returned", Severity::error,
                    dlpack::Release{1, 0}, std::nullopt, kArrayApiDlpack, "must",
                    "In particular, when kDLCPU is in use, stream must be None and a "
                    "synchronization must be performed to ensure data safety.",
                    "__dlpack__(dl_device=(kDLCPU, 0), stream=None) of an array with pending "
                    "writes on its device: the host memory of the capsule must hold the final "
                    "elements when __dlpack__ returns. A producer that declines the copy "
                    "(BufferError) is not judged."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-STREAM-ZERO", "python", "A consumer passed stream=0 for a CUDA array",
         Severity::error, kFirstRelease, std::nullopt, kArrayApiDlpack, "must",
         "The pointer must be an integer larger than or equal to -1 (see below for allowed "
         "values on each platform).",
         "The values allowed for CUDA are None, 1, 2 and a stream pointer (and -1); \"0 is "
         "disallowed due to its ambiguity: 0 could mean either None, 1, or 2.\" The tool's "
         "offered producer of a CUDA array records the stream each consumer passes."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-STREAM-READ", "python",
         "A consumer read the elements on another stream than it passed", Severity::error,
         kFirstRelease, std::nullopt, kPythonSpecPage, "must", kConsumerPassesStream,
         "The tool's offered producer makes its elements late (a pending write on a stream of "
         "its own) and orders that write before the stream the consumer passes (None: the "
         "legacy default stream), as a correct producer does. A consumer whose array then "
         "holds stale elements read them on a stream it did not pass: for None, a stream "
         "other than the legacy default stream."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-STREAM-DEVICE", "python",
         "A consumer passed a stream of another device than the array's", Severity::warning,
         kFirstRelease, std::nullopt, kArrayApiDlpack, "convention",
         "stream is provided by the consumer to the producer to instruct the producer to "
         "ensure that operations can safely be performed on the array (e.g., by inserting a "
         "dependency between streams via \"wait for event\").",
         "The operations are performed on the array's device; a stream of another device "
         "(as the CUDA driver says: cuStreamGetDevice) makes the producer order its work "
         "across devices, if it can, and is usually a consumer that took its current device "
         "instead of the array's."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-DEVICE-AGREES", "python", "__dlpack_device__ disagrees with the tensor",
                    Severity::error, kFirstRelease, std::nullopt, kArrayApiDlpackDevice,
                    "definition", "Returns device type and device ID in DLPack format.",
                    "__dlpack_device__ describes the device of the tensor __dlpack__ exports; a "
                    "consumer that trusts it passes the wrong stream or device."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-RENAME", "python", "A consumer did not rename the capsule it consumed",
         Severity::error, kFirstRelease, std::nullopt, kPythonSpecPage, "must",
         "The consumer must transer ownership of the DLManagedTensor from the capsule to "
         "its own object.",
         "It does so by renaming the capsule to \"used_dltensor\" "
         "(\"used_dltensor_versioned\"), so that the capsule's destructor does not free "
         "the tensor."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-CONSUMER-REUSE", "python", "A consumer accepted a capsule already consumed",
         Severity::error, kFirstRelease, std::nullopt, kPythonSpecPage, "definition",
         "therefore it is consumed exactly once, and it will not be visible to users of "
         "the Python API.",
         "A capsule named \"used_dltensor\" (\"used_dltensor_versioned\") belongs to another "
         "consumer already; taking it again frees the tensor twice."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-SUAI-FIELD", "python",
                    "__sycl_usm_array_interface__ field missing or of the wrong type",
                    Severity::error, kFirstRelease, std::nullopt, kSuaiPage, "definition",
                    "by providing __sycl_usm_array_interface__ attribute describing the allocation "
                    "in a Python dictionary with the following fields:",
                    "The fields: shape (tuple of integers), typestr (string), data ((int, bool)), "
                    "strides (optional tuple), offset (optional int), syclobj and version (1); the "
                    "page describes them without a must."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-SUAI-SYCLOBJ", "python", "__sycl_usm_array_interface__ syclobj of no known form",
         Severity::error, kFirstRelease, std::nullopt, kSuaiPage, "definition",
         "Python object from which SYCL context to which represented USM allocation is "
         "bound.",
         "The page lists the forms: a filter selector string, a dpctl.SyclContext, a "
         "capsule named \"SyclContextRef\", a dpctl.SyclQueue, a capsule named "
         "\"SyclQueueRef\", or an object whose _get_capsule() returns such a capsule."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-SUAI-AGREES", "python",
                    "__sycl_usm_array_interface__ disagrees with the DLPack tensor",
                    Severity::error, kFirstRelease, std::nullopt, kSuaiPage, "definition",
                    "A 2-tuple whose first element is a Python integer encoding USM pointer value.",
                    "Both describe the same USM memory: shape, element type, address (data[0] plus "
                    "offset elements), strides (in elements) and read-only flag agree with the "
                    "tensor __dlpack__ exports."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-EXCHANGE-API-CAPSULE", "python",
         "__dlpack_c_exchange_api__ is not a capsule named \"dlpack_exchange_api\" on the "
         "type",
         Severity::error, dlpack::Release{1, 3}, std::nullopt, kExchangeApiHeader, "must",
         "This attribute must be set on the type as a Python PyCapsule with name "
         "\"dlpack_exchange_api\".",
         "Consumers look the attribute up on the type and open the capsule by that name."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-EXCHANGE-API-VERSION", "python", "DLPackExchangeAPI of an unknown major version",
         Severity::warning, dlpack::Release{1, 3}, std::nullopt, kExchangeApiHeader, "must",
         "The provided DLPack version the consumer must check major version "
         "compatibility before using this struct.",
         "A consumer of this major version cannot use the table; prev_api may point to "
         "an older one."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-EXCHANGE-API-NULL", "python", "DLPackExchangeAPI function pointer is NULL",
         Severity::error, dlpack::Release{1, 3}, std::nullopt, kExchangeApiHeader, "must",
         "This function must not be NULL.",
         "managed_tensor_allocator must not be NULL; "
         "managed_tensor_from_py_object_no_sync, managed_tensor_to_py_object_no_sync and "
         "current_work_stream \"must be not NULL\"; only dltensor_from_py_object_no_sync "
         "can be NULL."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-EXCHANGE-API-READABLE", "python",
         "The DLPackExchangeAPI table is not readable memory", Severity::error,
         dlpack::Release{1, 3}, std::nullopt, kExchangeApiHeader, "must",
         "The DLPackExchangeAPI* must stay alive throughout the lifetime of the process.",
         "The capsule's pointer leads to memory the tool cannot read (read "
         "page-guarded): the table is gone or never was, and a consumer calling through "
         "it crashes."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-PY-EXCHANGE-API-TENSOR", "python",
                    "managed_tensor_from_py_object_no_sync disagrees with __dlpack__",
                    Severity::error, dlpack::Release{1, 3}, std::nullopt, kExchangeApiHeader,
                    "definition", "Producer function pointer for DLPackManagedTensorFromPyObject",
                    "managed_tensor_from_py_object_no_sync exports the object to an owning "
                    "DLManagedTensorVersioned; the tool expects the tensor __dlpack__ describes."},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-DECLINE-DEVICE-EXCEPTION", "python",
         "A device the consumer does not support declined with neither BufferError nor "
         "TypeError",
         Severity::warning, kFirstRelease, std::nullopt, kPythonSpecPage, "recommended",
         "If an array that is accessed via the interchange protocol lives on a device that the "
         "requesting (consumer) library does not support, it is recommended to raise a "
         "BufferError, unless an explicit copy is requested (see below) and the producer can "
         "support the request.",
         "The decline is clean; the exception is not the one recommended. Earlier revisions of "
         "the specification recommended TypeError (cupy raises it), so TypeError is clean as "
         "well. The decline concerns the device when the consumer also declines the plainest "
         "tensor (float32, C order) on the same memory."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PY-DECLINE-EXCEPTION", "python",
         "A dtype or layout declined with another exception than BufferError", Severity::info,
         kFirstRelease, std::nullopt, kPythonSpecPage, "heuristic", "",
         "No sentence names the exception for an unsupported dtype or layout; numpy moved such "
         "refusals to BufferError, which lets a caller tell a refusal from a bug. Worth knowing "
         "only."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> python_rules() {
  return kPythonRules;
}

}  // namespace dlpack_usm::rules
