#include <gtest/gtest.h>

#include <limits>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_oneapi_tensor;
using testing::clean_tensor;
using testing::findings_of;
using testing::fires;
using testing::problem_ids;

using Errors = std::vector<std::string>;

TEST(AddressingRules, ByteOffsetMustBeWholeElements) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.byte_offset = 6;
  auto findings = findings_of(tensor, "DLP-OFFSET-UNALIGNED");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.byte_offset");
  EXPECT_NE(findings[0].message.find("6"), std::string::npos);
  // One defect, one error: the misaligned first element is not reported again.
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-OFFSET-UNALIGNED"});
  tensor.byte_offset = 8;
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(AddressingRules, ByteOffsetOfSubByteTypesIsNotJudged) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dlpack::kDLFloat4_e2m1fn, 4, 1};
  tensor.byte_offset = 3;
  EXPECT_FALSE(fires(tensor, "DLP-OFFSET-UNALIGNED"));
}

TEST(AddressingRules, ByteOffsetViewsPass) {
  // A view of row 1 of a 4x3 float32 buffer: data at the buffer, offset 12.
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.byte_offset = 12;
  tensor.runtime->alloc_size = 48;
  EXPECT_TRUE(evaluate(tensor).empty());
}

TEST(AddressingRules, ExtentOverflowFromStrides) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.strides = std::vector<std::int64_t>{std::int64_t{1} << 62, 1};
  auto findings = findings_of(tensor, "DLP-EXTENT-OVERFLOW");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.strides");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-EXTENT-OVERFLOW"});
}

TEST(AddressingRules, ExtentOverflowFromShape) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.shape = std::vector<std::int64_t>{std::int64_t{1} << 40, std::int64_t{1} << 40};
  tensor.strides = std::vector<std::int64_t>{std::int64_t{1} << 40, 1};
  auto findings = findings_of(tensor, "DLP-EXTENT-OVERFLOW");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.shape");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-EXTENT-OVERFLOW"});
}

TEST(AddressingRules, AddressRangeLeavingTheAddressSpace) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.data = std::numeric_limits<std::uint64_t>::max() - 15;  // 16-aligned, 24 bytes needed
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-EXTENT-OVERFLOW"});
  // Negative strides reaching below address 0.
  facts::TensorFacts below = clean_tensor();
  below.data = 0x100;
  below.shape = std::vector<std::int64_t>{1000, 3};
  below.strides = std::vector<std::int64_t>{-3, 1};
  EXPECT_EQ(problem_ids(below), Errors{"DLP-EXTENT-OVERFLOW"});
}

TEST(AddressingRules, ElementsMustStayInsideTheAllocation) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime->alloc_size = 20;  // the tensor needs 24
  auto findings = findings_of(tensor, "DLP-EXTENT-OUTSIDE-ALLOCATION");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.data");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-EXTENT-OUTSIDE-ALLOCATION"});

  facts::TensorFacts before = clean_oneapi_tensor();
  before.runtime->alloc_base = before.data + 4;
  before.runtime->alloc_size = 64;
  EXPECT_EQ(problem_ids(before), Errors{"DLP-EXTENT-OUTSIDE-ALLOCATION"});

  // A negative-stride view that starts at the last row stays inside.
  facts::TensorFacts flipped = clean_oneapi_tensor();
  flipped.byte_offset = 12;
  flipped.strides = std::vector<std::int64_t>{-3, 1};
  EXPECT_TRUE(problem_ids(flipped).empty());
  flipped.byte_offset = 0;
  EXPECT_EQ(problem_ids(flipped), Errors{"DLP-EXTENT-OUTSIDE-ALLOCATION"});
}

TEST(AddressingRules, NullDataOnlyForEmptyTensors) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.data = 0;
  auto findings = findings_of(tensor, "DLP-DATA-NULL");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("6 element"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DATA-NULL"});
  // A scalar has one element.
  facts::TensorFacts scalar = clean_tensor();
  scalar.ndim = 0;
  scalar.shape.reset();
  scalar.strides.reset();
  scalar.data = 0;
  EXPECT_EQ(problem_ids(scalar), Errors{"DLP-DATA-NULL"});
}

TEST(AddressingRules, EmptyTensorWithDataIsAWarning) {
  // "should be set to NULL": a should, no error.
  facts::TensorFacts tensor = clean_tensor();
  tensor.shape = std::vector<std::int64_t>{0, 3};
  auto findings = findings_of(tensor, "DLP-DATA-EMPTY-NOT-NULL");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::warning);
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DATA-EMPTY-NOT-NULL"});
  EXPECT_FALSE(has_errors(evaluate(tensor)));
  tensor.data = 0;
  EXPECT_TRUE(evaluate(tensor).empty());
}

}  // namespace
}  // namespace dlpack_usm::rules
