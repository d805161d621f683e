// Every rule id of the catalog, once, for the code outside src/rules/ that
// names a rule (a case that judges a behaviour rule, a refusal that cites
// one): a typo is a compile error, and a test checks that every constant
// here is in the catalog and every rule of the catalog is here.
#pragma once

#include <array>
#include <string_view>

namespace dlpack_usm::rules::ids {

inline constexpr std::string_view kVersionLegacy = "DLP-VERSION-LEGACY";
inline constexpr std::string_view kVersionMajor = "DLP-VERSION-MAJOR";
inline constexpr std::string_view kVersionMinorNewer = "DLP-VERSION-MINOR-NEWER";
inline constexpr std::string_view kFlagsUnknownBits = "DLP-FLAGS-UNKNOWN-BITS";
inline constexpr std::string_view kFlagsPaddedVersion = "DLP-FLAGS-PADDED-VERSION";
inline constexpr std::string_view kFlagsPaddedNotSubbyte = "DLP-FLAGS-PADDED-NOT-SUBBYTE";
inline constexpr std::string_view kFlagsReadOnly = "DLP-FLAGS-READ-ONLY";
inline constexpr std::string_view kFlagsIsCopied = "DLP-FLAGS-IS-COPIED";
inline constexpr std::string_view kDtypeCodeUnknown = "DLP-DTYPE-CODE-UNKNOWN";
inline constexpr std::string_view kDtypeCodeVersion = "DLP-DTYPE-CODE-VERSION";
inline constexpr std::string_view kDtypeCodeUnreleased = "DLP-DTYPE-CODE-UNRELEASED";
inline constexpr std::string_view kDtypeBitsZero = "DLP-DTYPE-BITS-ZERO";
inline constexpr std::string_view kDtypeBitsFp6Fp4 = "DLP-DTYPE-BITS-FP6-FP4";
inline constexpr std::string_view kDtypeBitsFixed = "DLP-DTYPE-BITS-FIXED";
inline constexpr std::string_view kDtypeBitsInvalid = "DLP-DTYPE-BITS-INVALID";
inline constexpr std::string_view kDtypeLanesZero = "DLP-DTYPE-LANES-ZERO";
inline constexpr std::string_view kDtypeLanesVector = "DLP-DTYPE-LANES-VECTOR";
inline constexpr std::string_view kNdimNegative = "DLP-NDIM-NEGATIVE";
inline constexpr std::string_view kNdimLimit = "DLP-NDIM-LIMIT";
inline constexpr std::string_view kShapeNull = "DLP-SHAPE-NULL";
inline constexpr std::string_view kShapeNegative = "DLP-SHAPE-NEGATIVE";
inline constexpr std::string_view kStridesNullRowMajor = "DLP-STRIDES-NULL-ROW-MAJOR";
inline constexpr std::string_view kStridesNull = "DLP-STRIDES-NULL";
inline constexpr std::string_view kStridesZero = "DLP-STRIDES-ZERO";
inline constexpr std::string_view kStridesUnsignedDivision = "DLP-STRIDES-UNSIGNED-DIVISION";
inline constexpr std::string_view kOffsetUnaligned = "DLP-OFFSET-UNALIGNED";
inline constexpr std::string_view kExtentOverflow = "DLP-EXTENT-OVERFLOW";
inline constexpr std::string_view kExtentOutsideAllocation = "DLP-EXTENT-OUTSIDE-ALLOCATION";
inline constexpr std::string_view kDataNull = "DLP-DATA-NULL";
inline constexpr std::string_view kDataEmptyNotNull = "DLP-DATA-EMPTY-NOT-NULL";
inline constexpr std::string_view kAlignElement = "DLP-ALIGN-ELEMENT";
inline constexpr std::string_view kAlign256 = "DLP-ALIGN-256";
inline constexpr std::string_view kDeviceTypeUnknown = "DLP-DEVICE-TYPE-UNKNOWN";
inline constexpr std::string_view kDeviceTypeVersion = "DLP-DEVICE-TYPE-VERSION";
inline constexpr std::string_view kDeviceTypeUnreleased = "DLP-DEVICE-TYPE-UNRELEASED";
inline constexpr std::string_view kDeviceIdNegative = "DLP-DEVICE-ID-NEGATIVE";
inline constexpr std::string_view kDeviceIdHostNonzero = "DLP-DEVICE-ID-HOST-NONZERO";
inline constexpr std::string_view kDeviceTypeNotRuntimeMemory =
    "DLP-DEVICE-TYPE-NOT-RUNTIME-MEMORY";
inline constexpr std::string_view kDeviceIdNotOwner = "DLP-DEVICE-ID-NOT-OWNER";
inline constexpr std::string_view kDeleterNull = "DLP-DELETER-NULL";
inline constexpr std::string_view kOneapiNoRuntime = "DLP-ONEAPI-NO-RUNTIME";
inline constexpr std::string_view kOneapiContextNotDefault = "DLP-ONEAPI-CONTEXT-NOT-DEFAULT";
inline constexpr std::string_view kOneapiUsmUnknown = "DLP-ONEAPI-USM-UNKNOWN";
inline constexpr std::string_view kOneapiDeviceIdRange = "DLP-ONEAPI-DEVICE-ID-RANGE";
inline constexpr std::string_view kOneapiDeviceIdRoot = "DLP-ONEAPI-DEVICE-ID-ROOT";
inline constexpr std::string_view kOneapiDeviceIdSubDevice = "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE";
inline constexpr std::string_view kOneapiUsmNotDevice = "DLP-ONEAPI-USM-NOT-DEVICE";
inline constexpr std::string_view kRuntimeOwnerAnswer = "DLP-RUNTIME-OWNER-ANSWER";
inline constexpr std::string_view kRuntimeQueueOrder = "DLP-RUNTIME-QUEUE-ORDER";
inline constexpr std::string_view kCudaNoRuntime = "DLP-CUDA-NO-RUNTIME";
inline constexpr std::string_view kCudaPointerUnknown = "DLP-CUDA-POINTER-UNKNOWN";
inline constexpr std::string_view kCudaDeviceIdRange = "DLP-CUDA-DEVICE-ID-RANGE";
inline constexpr std::string_view kCudaDeviceId = "DLP-CUDA-DEVICE-ID";
inline constexpr std::string_view kCudaDeviceMemoryType = "DLP-CUDA-DEVICE-MEMORY-TYPE";
inline constexpr std::string_view kCudaHostMemoryType = "DLP-CUDA-HOST-MEMORY-TYPE";
inline constexpr std::string_view kCudaManagedMemoryType = "DLP-CUDA-MANAGED-MEMORY-TYPE";
inline constexpr std::string_view kProducerContent = "DLP-PRODUCER-CONTENT";
inline constexpr std::string_view kProducerDeleterLeak = "DLP-PRODUCER-DELETER-LEAK";
inline constexpr std::string_view kConsumerChecksum = "DLP-CONSUMER-CHECKSUM";
inline constexpr std::string_view kConsumerWrongView = "DLP-CONSUMER-WRONG-VIEW";
inline constexpr std::string_view kConsumerCallsNullDeleter = "DLP-CONSUMER-CALLS-NULL-DELETER";
inline constexpr std::string_view kConsumerAcceptsInvalid = "DLP-CONSUMER-ACCEPTS-INVALID";
inline constexpr std::string_view kConsumerDeleterCount = "DLP-CONSUMER-DELETER-COUNT";
inline constexpr std::string_view kConsumerWritesReadOnly = "DLP-CONSUMER-WRITES-READ-ONLY";
inline constexpr std::string_view kExchangeApiPrototype = "DLP-EXCHANGE-API-PROTOTYPE";
inline constexpr std::string_view kExchangeApiAllocatorNull = "DLP-EXCHANGE-API-ALLOCATOR-NULL";
inline constexpr std::string_view kExchangeApiFromPyNull = "DLP-EXCHANGE-API-FROM-PY-NULL";
inline constexpr std::string_view kExchangeApiToPyNull = "DLP-EXCHANGE-API-TO-PY-NULL";
inline constexpr std::string_view kExchangeApiStreamFnNull = "DLP-EXCHANGE-API-STREAM-FN-NULL";
inline constexpr std::string_view kExchangeApiPrevNotNull = "DLP-EXCHANGE-API-PREV-NOT-NULL";
inline constexpr std::string_view kExchangeApiPrevOrder = "DLP-EXCHANGE-API-PREV-ORDER";
inline constexpr std::string_view kExchangeApiPrevCycle = "DLP-EXCHANGE-API-PREV-CYCLE";
inline constexpr std::string_view kExchangeApiStreamNull = "DLP-EXCHANGE-API-STREAM-NULL";
inline constexpr std::string_view kPluginCrash = "DLP-PLUGIN-CRASH";
inline constexpr std::string_view kPluginHang = "DLP-PLUGIN-HANG";
inline constexpr std::string_view kProducerStructLeak = "DLP-PRODUCER-STRUCT-LEAK";
inline constexpr std::string_view kProducerNullDeleterOwns = "DLP-PRODUCER-NULL-DELETER-OWNS";
inline constexpr std::string_view kProducerStream = "DLP-PRODUCER-STREAM";
inline constexpr std::string_view kProducerReadOnlyLegacy = "DLP-PRODUCER-READ-ONLY-LEGACY";
inline constexpr std::string_view kPyCapsuleName = "DLP-PY-CAPSULE-NAME";
inline constexpr std::string_view kPyLegacyDefault = "DLP-PY-LEGACY-DEFAULT";
inline constexpr std::string_view kPyVersionedOffered = "DLP-PY-VERSIONED-OFFERED";
inline constexpr std::string_view kPyVersionAboveMax = "DLP-PY-VERSION-ABOVE-MAX";
inline constexpr std::string_view kPyCapsuleDestructor = "DLP-PY-CAPSULE-DESTRUCTOR";
inline constexpr std::string_view kPyReadOnlyLegacy = "DLP-PY-READ-ONLY-LEGACY";
inline constexpr std::string_view kPyExportRaised = "DLP-PY-EXPORT-RAISED";
inline constexpr std::string_view kPyMemoryUnreadable = "DLP-PY-MEMORY-UNREADABLE";
inline constexpr std::string_view kPyKeywordTypeerror = "DLP-PY-KEYWORD-TYPEERROR";
inline constexpr std::string_view kPyDlDeviceForeign = "DLP-PY-DL-DEVICE-FOREIGN";
inline constexpr std::string_view kPyDlDeviceOwn = "DLP-PY-DL-DEVICE-OWN";
inline constexpr std::string_view kPyCopyFlag = "DLP-PY-COPY-FLAG";
inline constexpr std::string_view kPyNoCopyCopied = "DLP-PY-NO-COPY-COPIED";
inline constexpr std::string_view kPyCopyNoneCopied = "DLP-PY-COPY-NONE-COPIED";
inline constexpr std::string_view kPyCopiedFlagShared = "DLP-PY-COPIED-FLAG-SHARED";
inline constexpr std::string_view kPyDeclineClass = "DLP-PY-DECLINE-CLASS";
inline constexpr std::string_view kPyConsumerCopyShared = "DLP-PY-CONSUMER-COPY-SHARED";
inline constexpr std::string_view kPyConsumerNoCopyCopied = "DLP-PY-CONSUMER-NO-COPY-COPIED";
inline constexpr std::string_view kPyStreamCpu = "DLP-PY-STREAM-CPU";
inline constexpr std::string_view kPyStreamCudaZero = "DLP-PY-STREAM-CUDA-ZERO";
inline constexpr std::string_view kPyStreamCudaRefused = "DLP-PY-STREAM-CUDA-REFUSED";
inline constexpr std::string_view kPyStreamRace = "DLP-PY-STREAM-RACE";
inline constexpr std::string_view kPyStreamCpuSync = "DLP-PY-STREAM-CPU-SYNC";
inline constexpr std::string_view kPyConsumerStreamZero = "DLP-PY-CONSUMER-STREAM-ZERO";
inline constexpr std::string_view kPyConsumerStreamRead = "DLP-PY-CONSUMER-STREAM-READ";
inline constexpr std::string_view kPyConsumerStreamDevice = "DLP-PY-CONSUMER-STREAM-DEVICE";
inline constexpr std::string_view kPyDeviceAgrees = "DLP-PY-DEVICE-AGREES";
inline constexpr std::string_view kPyConsumerRename = "DLP-PY-CONSUMER-RENAME";
inline constexpr std::string_view kPyConsumerReuse = "DLP-PY-CONSUMER-REUSE";
inline constexpr std::string_view kPySuaiField = "DLP-PY-SUAI-FIELD";
inline constexpr std::string_view kPySuaiSyclobj = "DLP-PY-SUAI-SYCLOBJ";
inline constexpr std::string_view kPySuaiAgrees = "DLP-PY-SUAI-AGREES";
inline constexpr std::string_view kPyExchangeApiCapsule = "DLP-PY-EXCHANGE-API-CAPSULE";
inline constexpr std::string_view kPyExchangeApiVersion = "DLP-PY-EXCHANGE-API-VERSION";
inline constexpr std::string_view kPyExchangeApiNull = "DLP-PY-EXCHANGE-API-NULL";
inline constexpr std::string_view kPyExchangeApiReadable = "DLP-PY-EXCHANGE-API-READABLE";
inline constexpr std::string_view kPyExchangeApiTensor = "DLP-PY-EXCHANGE-API-TENSOR";
inline constexpr std::string_view kConsumerInconsistentDecline =
    "DLP-CONSUMER-INCONSISTENT-DECLINE";
inline constexpr std::string_view kConsumerImportsUnknownMajor =
    "DLP-CONSUMER-IMPORTS-UNKNOWN-MAJOR";
inline constexpr std::string_view kPluginCrashInvalid = "DLP-PLUGIN-CRASH-INVALID";
inline constexpr std::string_view kPluginHangInvalid = "DLP-PLUGIN-HANG-INVALID";
inline constexpr std::string_view kConsumerRequiredFeature = "DLP-CONSUMER-REQUIRED-FEATURE";
inline constexpr std::string_view kPluginStatus = "DLP-PLUGIN-STATUS";
inline constexpr std::string_view kPyDeclineDeviceException = "DLP-PY-DECLINE-DEVICE-EXCEPTION";
inline constexpr std::string_view kPyDeclineException = "DLP-PY-DECLINE-EXCEPTION";

// Every id above, for the test.
inline constexpr std::array kAll{
    kVersionLegacy,
    kVersionMajor,
    kVersionMinorNewer,
    kFlagsUnknownBits,
    kFlagsPaddedVersion,
    kFlagsPaddedNotSubbyte,
    kFlagsReadOnly,
    kFlagsIsCopied,
    kDtypeCodeUnknown,
    kDtypeCodeVersion,
    kDtypeCodeUnreleased,
    kDtypeBitsZero,
    kDtypeBitsFp6Fp4,
    kDtypeBitsFixed,
    kDtypeBitsInvalid,
    kDtypeLanesZero,
    kDtypeLanesVector,
    kNdimNegative,
    kNdimLimit,
    kShapeNull,
    kShapeNegative,
    kStridesNullRowMajor,
    kStridesNull,
    kStridesZero,
    kStridesUnsignedDivision,
    kOffsetUnaligned,
    kExtentOverflow,
    kExtentOutsideAllocation,
    kDataNull,
    kDataEmptyNotNull,
    kAlignElement,
    kAlign256,
    kDeviceTypeUnknown,
    kDeviceTypeVersion,
    kDeviceTypeUnreleased,
    kDeviceIdNegative,
    kDeviceIdHostNonzero,
    kDeviceTypeNotRuntimeMemory,
    kDeviceIdNotOwner,
    kDeleterNull,
    kOneapiNoRuntime,
    kOneapiContextNotDefault,
    kOneapiUsmUnknown,
    kOneapiDeviceIdRange,
    kOneapiDeviceIdRoot,
    kOneapiDeviceIdSubDevice,
    kOneapiUsmNotDevice,
    kRuntimeOwnerAnswer,
    kRuntimeQueueOrder,
    kCudaNoRuntime,
    kCudaPointerUnknown,
    kCudaDeviceIdRange,
    kCudaDeviceId,
    kCudaDeviceMemoryType,
    kCudaHostMemoryType,
    kCudaManagedMemoryType,
    kProducerContent,
    kProducerDeleterLeak,
    kConsumerChecksum,
    kConsumerWrongView,
    kConsumerCallsNullDeleter,
    kConsumerAcceptsInvalid,
    kConsumerDeleterCount,
    kConsumerWritesReadOnly,
    kExchangeApiPrototype,
    kExchangeApiAllocatorNull,
    kExchangeApiFromPyNull,
    kExchangeApiToPyNull,
    kExchangeApiStreamFnNull,
    kExchangeApiPrevNotNull,
    kExchangeApiPrevOrder,
    kExchangeApiPrevCycle,
    kExchangeApiStreamNull,
    kPluginCrash,
    kPluginHang,
    kProducerStructLeak,
    kProducerNullDeleterOwns,
    kProducerReadOnlyLegacy,
    kProducerStream,
    kPyCapsuleName,
    kPyLegacyDefault,
    kPyVersionedOffered,
    kPyVersionAboveMax,
    kPyCapsuleDestructor,
    kPyReadOnlyLegacy,
    kPyExportRaised,
    kPyMemoryUnreadable,
    kPyKeywordTypeerror,
    kPyDlDeviceForeign,
    kPyDlDeviceOwn,
    kPyCopyFlag,
    kPyNoCopyCopied,
    kPyCopyNoneCopied,
    kPyCopiedFlagShared,
    kPyDeclineClass,
    kPyConsumerCopyShared,
    kPyConsumerNoCopyCopied,
    kPyStreamCpu,
    kPyStreamCudaZero,
    kPyStreamCudaRefused,
    kPyStreamRace,
    kPyStreamCpuSync,
    kPyConsumerStreamZero,
    kPyConsumerStreamRead,
    kPyConsumerStreamDevice,
    kPyDeviceAgrees,
    kPyConsumerRename,
    kPyConsumerReuse,
    kPySuaiField,
    kPySuaiSyclobj,
    kPySuaiAgrees,
    kPyExchangeApiCapsule,
    kPyExchangeApiVersion,
    kPyExchangeApiNull,
    kPyExchangeApiReadable,
    kPyExchangeApiTensor,
    kConsumerInconsistentDecline,
    kConsumerImportsUnknownMajor,
    kPluginCrashInvalid,
    kPluginHangInvalid,
    kConsumerRequiredFeature,
    kPluginStatus,
    kPyDeclineDeviceException,
    kPyDeclineException,
};

}  // namespace dlpack_usm::rules::ids
