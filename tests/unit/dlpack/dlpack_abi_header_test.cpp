// include/dlpack_usm/dlpack_abi.h, the C declarations of the DLPack 1.3 ABI
// the tool installs for plugin authors, against the tool's own model of the
// ABI (src/dlpack/abi.hpp, whose layouts abi_crosscheck.cpp checks against a
// released header): every struct the same size with its fields at the same
// offsets, every enumerator of the 1.3 release the same value, and the
// header's version 1.3. A header that drifted from the model is a compile
// error or a failing test here.
#include "dlpack_usm/dlpack_abi.h"

#include <cstddef>

#include <gtest/gtest.h>

#include "dlpack/abi.hpp"

namespace model = dlpack_usm::dlpack;

#define SAME_LAYOUT(type, field) \
  static_assert(offsetof(::type, field) == offsetof(model::type, field), #type "::" #field)

static_assert(sizeof(::DLPackVersion) == sizeof(model::DLPackVersion));
static_assert(sizeof(::DLDevice) == sizeof(model::DLDevice));
static_assert(sizeof(::DLDataType) == sizeof(model::DLDataType));
static_assert(sizeof(::DLTensor) == sizeof(model::DLTensor));
static_assert(sizeof(::DLManagedTensor) == sizeof(model::DLManagedTensor));
static_assert(sizeof(::DLManagedTensorVersioned) == sizeof(model::DLManagedTensorVersioned));
static_assert(sizeof(::DLPackExchangeAPI) == sizeof(model::DLPackExchangeAPI));
SAME_LAYOUT(DLTensor, device);
SAME_LAYOUT(DLTensor, ndim);
SAME_LAYOUT(DLTensor, dtype);
SAME_LAYOUT(DLTensor, shape);
SAME_LAYOUT(DLTensor, strides);
SAME_LAYOUT(DLTensor, byte_offset);
SAME_LAYOUT(DLManagedTensor, manager_ctx);
SAME_LAYOUT(DLManagedTensor, deleter);
SAME_LAYOUT(DLManagedTensorVersioned, manager_ctx);
SAME_LAYOUT(DLManagedTensorVersioned, deleter);
SAME_LAYOUT(DLManagedTensorVersioned, flags);
SAME_LAYOUT(DLManagedTensorVersioned, dl_tensor);
SAME_LAYOUT(DLPackExchangeAPI, managed_tensor_allocator);
SAME_LAYOUT(DLPackExchangeAPI, current_work_stream);

namespace {

TEST(DlpackAbiHeader, DeclaresTheReleaseTheModelKnows) {
  EXPECT_EQ(DLPACK_MAJOR_VERSION, static_cast<int>(model::kModelMajor));
  EXPECT_EQ(DLPACK_MINOR_VERSION, static_cast<int>(model::kModelMinor));
}

TEST(DlpackAbiHeader, EveryEnumeratorHasTheModelsValue) {
  EXPECT_EQ(static_cast<int>(::kDLCPU), model::kDLCPU);
  EXPECT_EQ(static_cast<int>(::kDLCUDA), model::kDLCUDA);
  EXPECT_EQ(static_cast<int>(::kDLCUDAHost), model::kDLCUDAHost);
  EXPECT_EQ(static_cast<int>(::kDLOpenCL), model::kDLOpenCL);
  EXPECT_EQ(static_cast<int>(::kDLVulkan), model::kDLVulkan);
  EXPECT_EQ(static_cast<int>(::kDLMetal), model::kDLMetal);
  EXPECT_EQ(static_cast<int>(::kDLVPI), model::kDLVPI);
  EXPECT_EQ(static_cast<int>(::kDLROCM), model::kDLROCM);
  EXPECT_EQ(static_cast<int>(::kDLROCMHost), model::kDLROCMHost);
  EXPECT_EQ(static_cast<int>(::kDLExtDev), model::kDLExtDev);
  EXPECT_EQ(static_cast<int>(::kDLCUDAManaged), model::kDLCUDAManaged);
  EXPECT_EQ(static_cast<int>(::kDLOneAPI), model::kDLOneAPI);
  EXPECT_EQ(static_cast<int>(::kDLWebGPU), model::kDLWebGPU);
  EXPECT_EQ(static_cast<int>(::kDLHexagon), model::kDLHexagon);
  EXPECT_EQ(static_cast<int>(::kDLMAIA), model::kDLMAIA);
  EXPECT_EQ(static_cast<int>(::kDLTrn), model::kDLTrn);
  EXPECT_EQ(static_cast<int>(::kDLInt), model::kDLInt);
  EXPECT_EQ(static_cast<int>(::kDLBool), model::kDLBool);
  EXPECT_EQ(static_cast<int>(::kDLBfloat), model::kDLBfloat);
  EXPECT_EQ(static_cast<int>(::kDLComplex), model::kDLComplex);
  EXPECT_EQ(static_cast<int>(::kDLFloat8_e3m4), model::kDLFloat8_e3m4);
  EXPECT_EQ(static_cast<int>(::kDLFloat8_e8m0fnu), model::kDLFloat8_e8m0fnu);
  EXPECT_EQ(static_cast<int>(::kDLFloat4_e2m1fn), model::kDLFloat4_e2m1fn);
}

TEST(DlpackAbiHeader, FlagsHaveTheModelsBits) {
  EXPECT_EQ(DLPACK_FLAG_BITMASK_READ_ONLY, model::kFlagReadOnly);
  EXPECT_EQ(DLPACK_FLAG_BITMASK_IS_COPIED, model::kFlagIsCopied);
  EXPECT_EQ(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED, model::kFlagIsSubbyteTypePadded);
}

}  // namespace
