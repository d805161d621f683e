#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fired_ids;
using testing::fires;
using testing::problem_ids;

using Errors = std::vector<std::string>;

facts::TensorFacts with_dims(std::vector<std::int64_t> shape,
                             std::optional<std::vector<std::int64_t>> strides) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.ndim = static_cast<std::int64_t>(shape.size());
  tensor.shape = std::move(shape);
  tensor.strides = std::move(strides);
  return tensor;
}

TEST(ShapeRules, NegativeNdim) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.ndim = -1;
  tensor.shape.reset();
  tensor.strides.reset();
  auto findings = findings_of(tensor, "DLP-NDIM-NEGATIVE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.ndim");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-NDIM-NEGATIVE"});
}

TEST(ShapeRules, NdimBeyondTheReaderLimit) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.ndim = facts::kMaxReadableDims + 1;
  tensor.shape.reset();
  tensor.strides.reset();
  EXPECT_EQ(fired_ids(tensor), Errors{"DLP-NDIM-LIMIT"});
  // At the limit everything is read and checked as usual.
  facts::TensorFacts at_limit = with_dims(std::vector<std::int64_t>(facts::kMaxReadableDims, 1),
                                          std::vector<std::int64_t>(facts::kMaxReadableDims, 1));
  EXPECT_TRUE(problem_ids(at_limit).empty());
}

TEST(ShapeRules, NullShapeOnlyForScalars) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.shape.reset();
  auto findings = findings_of(tensor, "DLP-SHAPE-NULL");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.shape");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-SHAPE-NULL"});

  facts::TensorFacts scalar = clean_tensor();
  scalar.ndim = 0;
  scalar.shape.reset();
  scalar.strides.reset();
  EXPECT_TRUE(evaluate(scalar).empty());
}

TEST(ShapeRules, NegativeExtentsEachGetAFinding) {
  facts::TensorFacts tensor = with_dims({2, -3, -1}, std::vector<std::int64_t>{3, 1, 1});
  auto findings = findings_of(tensor, "DLP-SHAPE-NEGATIVE");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].field, "dl_tensor.shape[1]");
  EXPECT_EQ(findings[1].field, "dl_tensor.shape[2]");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-SHAPE-NEGATIVE"});
}

TEST(ShapeRules, NullStridesMeanRowMajorBefore12) {
  facts::TensorFacts tensor = with_dims({2, 3}, std::nullopt);
  tensor.version = {1, 1};
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-STRIDES-NULL-ROW-MAJOR"});
  tensor.abi = facts::Abi::legacy;
  EXPECT_EQ(fired_ids(tensor),
            (std::vector<std::string>{"DLP-VERSION-LEGACY", "DLP-STRIDES-NULL-ROW-MAJOR"}));
}

TEST(ShapeRules, NullStridesAreAnErrorFrom12) {
  facts::TensorFacts tensor = with_dims({2, 3}, std::nullopt);
  for (std::uint32_t minor : {2u, 3u}) {
    tensor.version = {1, minor};
    auto findings = findings_of(tensor, "DLP-STRIDES-NULL");
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].field, "dl_tensor.strides");
    EXPECT_EQ(problem_ids(tensor), Errors{"DLP-STRIDES-NULL"});
  }
  // ndim 0 may keep NULL strides (the header suggests it).
  facts::TensorFacts scalar = with_dims({}, std::nullopt);
  EXPECT_FALSE(fires(scalar, "DLP-STRIDES-NULL"));
}

TEST(ShapeRules, ZeroStrideOnARealDimensionIsAnInfo) {
  // Legal: a broadcast view, which the tool notes for consumers that write.
  facts::TensorFacts tensor = with_dims({4, 3}, std::vector<std::int64_t>{0, 1});
  auto findings = findings_of(tensor, "DLP-STRIDES-ZERO");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.strides[0]");
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-STRIDES-ZERO"});
}

TEST(ShapeRules, ValidLayoutsRealProducersEmitPass) {
  // Extent-1 dimensions with any stride (PyTorch writes 1, others 0 or junk).
  EXPECT_TRUE(evaluate(with_dims({2, 1, 3}, std::vector<std::int64_t>{3, 0, 1})).empty());
  EXPECT_TRUE(evaluate(with_dims({2, 1, 3}, std::vector<std::int64_t>{3, 12345, 1})).empty());
  // Size-0 tensors with any strides and NULL data.
  facts::TensorFacts empty = with_dims({0, 3}, std::vector<std::int64_t>{0, 0});
  empty.data = 0;
  EXPECT_TRUE(evaluate(empty).empty());
  empty.strides = std::vector<std::int64_t>{-7, 1000000};
  EXPECT_TRUE(evaluate(empty).empty());
  // Negative strides (a flipped view) with data pointing at the last row.
  facts::TensorFacts flipped = with_dims({2, 3}, std::vector<std::int64_t>{-3, 1});
  flipped.data = 0x10000 + 12;
  flipped.byte_offset = 0;
  EXPECT_EQ(problem_ids(flipped), Errors{});
  // F-order and transposed views.
  EXPECT_TRUE(evaluate(with_dims({2, 3}, std::vector<std::int64_t>{1, 2})).empty());
}

TEST(ShapeRules, NegativeStridesDividedAsUnsignedAreNamed) {
  // cupy 14.2: a 4x6 int32 view flipped on both axes, byte strides (-24, -4)
  // divided by 4 as unsigned numbers.
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dlpack::kDLInt, 32, 1};
  tensor.shape = std::vector<std::int64_t>{4, 6};
  tensor.strides = std::vector<std::int64_t>{4611686018427387898, 4611686018427387903};
  auto findings = findings_of(tensor, "DLP-STRIDES-UNSIGNED-DIVISION");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].field, "dl_tensor.strides[0]");
  EXPECT_NE(findings[0].message.find("meant is -6"), std::string::npos) << findings[0].message;
  EXPECT_NE(findings[1].message.find("meant is -1"), std::string::npos) << findings[1].message;
  // The overflow it causes is the same defect: one rule names it.
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-STRIDES-UNSIGNED-DIVISION"});
  // With 1-byte elements the division is exact: nothing to name.
  tensor.dtype = {dlpack::kDLInt, 8, 1};
  EXPECT_FALSE(fires(tensor, "DLP-STRIDES-UNSIGNED-DIVISION"));
  // float16 and complex64 too.
  tensor.dtype = {dlpack::kDLFloat, 16, 1};
  tensor.strides = std::vector<std::int64_t>{9223372036854775802, 9223372036854775807};
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-STRIDES-UNSIGNED-DIVISION"});
}

TEST(ShapeRules, HugeStridesThatAreNoDivisionStayAnOverflow) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.strides = std::vector<std::int64_t>{std::int64_t{1} << 61, 1};
  EXPECT_FALSE(fires(tensor, "DLP-STRIDES-UNSIGNED-DIVISION"));
  EXPECT_TRUE(fires(tensor, "DLP-EXTENT-OVERFLOW"));
}

TEST(ShapeRules, TheReaderLimitIsAToolLimitInfo) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.ndim = facts::kMaxReadableDims + 1;
  tensor.shape.reset();
  tensor.strides.reset();
  auto findings = findings_of(tensor, "DLP-NDIM-LIMIT");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_EQ(find_rule("DLP-NDIM-LIMIT")->normative, "heuristic");
}

}  // namespace
}  // namespace dlpack_usm::rules
