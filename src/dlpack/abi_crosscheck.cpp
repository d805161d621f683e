// Proves at build time that the tool's DLPack model and the system dlpack.h
// agree on every struct the system header defines. Debian's header is 0.6:
// legacy structs only; newer headers also define DLManagedTensorVersioned.
#include "dlpack/abi.hpp"

#if defined(DLPACK_USM_HAVE_SYSTEM_DLPACK)
#include <dlpack/dlpack.h>

namespace dlpack_usm::dlpack {
namespace {

#define DLPACK_USM_SAME_FIELD(ours, theirs, field)                           \
  static_assert(offsetof(ours, field) == offsetof(theirs, field),            \
                #ours "::" #field " is not where the system header has it"); \
  static_assert(sizeof(ours::field) == sizeof(theirs::field),                \
                #ours "::" #field " has another size in the system header")

static_assert(sizeof(::DLDevice) == sizeof(DLDevice));
DLPACK_USM_SAME_FIELD(DLDevice, ::DLDevice, device_type);
DLPACK_USM_SAME_FIELD(DLDevice, ::DLDevice, device_id);

static_assert(sizeof(::DLDataType) == sizeof(DLDataType));
DLPACK_USM_SAME_FIELD(DLDataType, ::DLDataType, code);
DLPACK_USM_SAME_FIELD(DLDataType, ::DLDataType, bits);
DLPACK_USM_SAME_FIELD(DLDataType, ::DLDataType, lanes);

static_assert(sizeof(::DLTensor) == sizeof(DLTensor));
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, data);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, device);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, ndim);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, dtype);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, shape);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, strides);
DLPACK_USM_SAME_FIELD(DLTensor, ::DLTensor, byte_offset);

static_assert(sizeof(::DLManagedTensor) == sizeof(DLManagedTensor));
DLPACK_USM_SAME_FIELD(DLManagedTensor, ::DLManagedTensor, dl_tensor);
DLPACK_USM_SAME_FIELD(DLManagedTensor, ::DLManagedTensor, manager_ctx);
DLPACK_USM_SAME_FIELD(DLManagedTensor, ::DLManagedTensor, deleter);

// Enumerators the system header shares with the model must carry the same
// values; the ones it lacks are the reason the model exists.
#define DLPACK_USM_SAME_VALUE(name) \
  static_assert(static_cast<int>(::name) == static_cast<int>(name), #name " differs")
DLPACK_USM_SAME_VALUE(kDLCPU);
DLPACK_USM_SAME_VALUE(kDLCUDA);
DLPACK_USM_SAME_VALUE(kDLCUDAHost);
DLPACK_USM_SAME_VALUE(kDLOpenCL);
DLPACK_USM_SAME_VALUE(kDLVulkan);
DLPACK_USM_SAME_VALUE(kDLMetal);
DLPACK_USM_SAME_VALUE(kDLVPI);
DLPACK_USM_SAME_VALUE(kDLROCM);
DLPACK_USM_SAME_VALUE(kDLROCMHost);
DLPACK_USM_SAME_VALUE(kDLExtDev);
DLPACK_USM_SAME_VALUE(kDLCUDAManaged);
DLPACK_USM_SAME_VALUE(kDLInt);
DLPACK_USM_SAME_VALUE(kDLUInt);
DLPACK_USM_SAME_VALUE(kDLFloat);
DLPACK_USM_SAME_VALUE(kDLOpaqueHandle);
DLPACK_USM_SAME_VALUE(kDLBfloat);
DLPACK_USM_SAME_VALUE(kDLComplex);
#undef DLPACK_USM_SAME_VALUE

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
static_assert(sizeof(::DLPackVersion) == sizeof(DLPackVersion));
static_assert(sizeof(::DLManagedTensorVersioned) == sizeof(DLManagedTensorVersioned));
DLPACK_USM_SAME_FIELD(DLManagedTensorVersioned, ::DLManagedTensorVersioned, version);
DLPACK_USM_SAME_FIELD(DLManagedTensorVersioned, ::DLManagedTensorVersioned, manager_ctx);
DLPACK_USM_SAME_FIELD(DLManagedTensorVersioned, ::DLManagedTensorVersioned, deleter);
DLPACK_USM_SAME_FIELD(DLManagedTensorVersioned, ::DLManagedTensorVersioned, flags);
DLPACK_USM_SAME_FIELD(DLManagedTensorVersioned, ::DLManagedTensorVersioned, dl_tensor);
static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == kFlagReadOnly);
static_assert(DLPACK_FLAG_BITMASK_IS_COPIED == kFlagIsCopied);
#endif

#undef DLPACK_USM_SAME_FIELD

}  // namespace
}  // namespace dlpack_usm::dlpack

#endif
