#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fires;
using testing::problem_ids;

facts::TensorFacts with_dtype(std::uint8_t code, std::uint8_t bits, std::uint16_t lanes = 1) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {code, bits, lanes};
  return tensor;
}

using Errors = std::vector<std::string>;

TEST(DtypeRules, UnknownCodeIsAnError) {
  facts::TensorFacts tensor = with_dtype(42, 32);
  auto findings = findings_of(tensor, "DLP-DTYPE-CODE-UNKNOWN");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.dtype.code");
  EXPECT_NE(findings[0].message.find("42"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DTYPE-CODE-UNKNOWN"});
  // 18 is kDLBcomplex of main after 1.3; 19 is the first code no header defines.
  EXPECT_EQ(problem_ids(with_dtype(19, 8)), Errors{"DLP-DTYPE-CODE-UNKNOWN"});
}

TEST(DtypeRules, CodeNewerThanTheDeclaredVersion) {
  facts::TensorFacts tensor = with_dtype(dl::kDLFloat8_e5m2, 8);
  tensor.version = {1, 0};
  auto findings = findings_of(tensor, "DLP-DTYPE-CODE-VERSION");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("kDLFloat8_e5m2"), std::string::npos);
  EXPECT_NE(findings[0].message.find("1.1"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DTYPE-CODE-VERSION"});
  tensor.version = {1, 1};
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(DtypeRules, ZeroBitsAndZeroLanesAreErrorsOfTheirOwn) {
  EXPECT_EQ(problem_ids(with_dtype(dl::kDLFloat, 0)), Errors{"DLP-DTYPE-BITS-ZERO"});
  EXPECT_EQ(problem_ids(with_dtype(dl::kDLFloat, 32, 0)), Errors{"DLP-DTYPE-LANES-ZERO"});
}

TEST(DtypeRules, EveryCodeAcceptsItsWidths) {
  struct Case {
    std::uint8_t code;
    std::vector<std::uint8_t> good;
    std::vector<std::uint8_t> bad;
    std::string rule = "DLP-DTYPE-BITS-INVALID";
  };
  const std::vector<Case> cases{
      {dl::kDLInt, {1, 2, 4, 8, 16, 32, 64}, {3, 12, 24, 128}},
      {dl::kDLUInt, {1, 2, 4, 8, 16, 32, 64}, {7, 48, 128}},
      {dl::kDLFloat, {16, 32, 64}, {8, 24, 80, 128}},
      {dl::kDLBfloat, {16}, {8, 32}, "DLP-DTYPE-BITS-FIXED"},
      {dl::kDLComplex, {32, 64, 128}, {16, 96, 256 - 1}},
      {dl::kDLBool, {8}, {1, 16, 32}},
      {dl::kDLFloat8_e3m4, {8}, {16}, "DLP-DTYPE-BITS-FIXED"},
      {dl::kDLFloat8_e4m3fn, {8}, {4, 16}, "DLP-DTYPE-BITS-FIXED"},
      {dl::kDLFloat8_e8m0fnu, {8}, {6}, "DLP-DTYPE-BITS-FIXED"},
      {dl::kDLOpaqueHandle, {8, 64, 72}, {}},
  };
  for (const Case& c : cases) {
    for (std::uint8_t bits : c.good) {
      EXPECT_TRUE(problem_ids(with_dtype(c.code, bits)).empty())
          << "code " << int(c.code) << " bits " << int(bits);
    }
    for (std::uint8_t bits : c.bad) {
      EXPECT_EQ(problem_ids(with_dtype(c.code, bits)), Errors{c.rule})
          << "code " << int(c.code) << " bits " << int(bits);
    }
  }
}

TEST(DtypeRules, InvalidBitsMessageNamesTheAllowedWidths) {
  auto findings = findings_of(with_dtype(dl::kDLBool, 1), "DLP-DTYPE-BITS-INVALID");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.dtype.bits");
  EXPECT_NE(findings[0].message.find("kDLBool"), std::string::npos);
  EXPECT_NE(findings[0].message.find("takes 8 bits"), std::string::npos);
}

TEST(DtypeRules, VectorLanesAreAnInfo) {
  // Legal: that many consumers reject them is the tool's judgement.
  facts::TensorFacts tensor = with_dtype(dl::kDLFloat, 32, 4);
  auto findings = findings_of(tensor, "DLP-DTYPE-LANES-VECTOR");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_TRUE(problem_ids(tensor).empty());
  EXPECT_FALSE(fires(clean_tensor(), "DLP-DTYPE-LANES-VECTOR"));
}

TEST(DtypeRules, Float6AndFloat4BitsAreTheHeadersMust) {
  // "the producer must ensure it is set while the consumer must stop
  // importing if the value is unexpected": the one dtype error.
  facts::TensorFacts tensor = with_dtype(dl::kDLFloat6_e3m2fn, 8);
  auto findings = findings_of(tensor, "DLP-DTYPE-BITS-FP6-FP4");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::error);
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DTYPE-BITS-FP6-FP4"});
  EXPECT_FALSE(fires(with_dtype(dl::kDLFloat6_e3m2fn, 6), "DLP-DTYPE-BITS-FP6-FP4"));
  EXPECT_TRUE(fires(with_dtype(dl::kDLFloat4_e2m1fn, 6), "DLP-DTYPE-BITS-FP6-FP4"));
  EXPECT_FALSE(fires(with_dtype(dl::kDLFloat4_e2m1fn, 4), "DLP-DTYPE-BITS-FP6-FP4"));
}

TEST(DtypeRules, OtherInvalidWidthsAreAWarning) {
  facts::TensorFacts tensor = with_dtype(dl::kDLBool, 1);
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DTYPE-BITS-INVALID"});
  EXPECT_FALSE(has_errors(evaluate(tensor)));
  EXPECT_EQ(find_rule("DLP-DTYPE-BITS-INVALID")->normative, "convention");
}

TEST(DtypeRules, AWidthTheCodeNamesIsFixedByDefinition) {
  facts::TensorFacts tensor = with_dtype(dl::kDLBfloat, 32);
  auto findings = findings_of(tensor, "DLP-DTYPE-BITS-FIXED");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::error);
  EXPECT_EQ(findings[0].field, "dl_tensor.dtype.bits");
  EXPECT_NE(findings[0].message.find("16-bit"), std::string::npos) << findings[0].message;
  EXPECT_EQ(problem_ids(with_dtype(dl::kDLFloat8_e5m2, 16)), Errors{"DLP-DTYPE-BITS-FIXED"});
  // Zero bits is its own defect, reported once.
  EXPECT_EQ(problem_ids(with_dtype(dl::kDLBfloat, 0)), Errors{"DLP-DTYPE-BITS-ZERO"});
}

}  // namespace
}  // namespace dlpack_usm::rules
