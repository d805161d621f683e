// Codes are judged by the header generation that defines them: main after
// 1.3 added kDLBcomplex, kDLTPU, kDLTPUHost and kDLAscend without a minor
// bump, so a tensor declaring 1.3 may carry them (an info says no release
// has them yet); a tensor declaring less may not; a code no generation
// knows, and a known code with a width its definition rules out, keep their
// errors.
#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fired_ids;
using testing::problem_ids;

using Ids = std::vector<std::string>;

TEST(GenerationRules, MainsDeviceTypesInA13TensorOnlyInform) {
  for (std::int32_t type : {dl::kDLTPU, dl::kDLTPUHost, dl::kDLAscend}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.device_type = type;
    EXPECT_EQ(fired_ids(tensor), Ids{"DLP-DEVICE-TYPE-UNRELEASED"}) << type;
    auto info = findings_of(tensor, "DLP-DEVICE-TYPE-UNRELEASED");
    ASSERT_EQ(info.size(), 1u);
    EXPECT_EQ(info[0].severity, Severity::info);
    EXPECT_NE(info[0].message.find("main after 1.3"), std::string::npos) << info[0].message;
  }
}

TEST(GenerationRules, MainsDtypeCodeInA13TensorOnlyInforms) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dl::kDLBcomplex, 32, 1};
  EXPECT_EQ(fired_ids(tensor), Ids{"DLP-DTYPE-CODE-UNRELEASED"});
}

TEST(GenerationRules, MainsCodesInOlderTensorsAreNewerThanDeclared) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.version = {1, 2};
  tensor.device_type = dl::kDLAscend;
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-DEVICE-TYPE-VERSION"});
  auto findings = findings_of(tensor, "DLP-DEVICE-TYPE-VERSION");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("dlpack.h main after 1.3"), std::string::npos);
  EXPECT_NE(findings[0].message.find("declare version 1.3"), std::string::npos);
  // The info is about 1.3 tensors: a 1.2 tensor has the error alone.
  EXPECT_EQ(fired_ids(tensor), Ids{"DLP-DEVICE-TYPE-VERSION"});

  facts::TensorFacts legacy = clean_tensor();
  legacy.abi = facts::Abi::legacy;
  legacy.dtype = {dl::kDLBcomplex, 32, 1};
  EXPECT_EQ(problem_ids(legacy), Ids{"DLP-DTYPE-CODE-VERSION"});
}

TEST(GenerationRules, ACodeNoGenerationKnowsStaysUnknown) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = 22;
  tensor.dtype = {19, 8, 1};
  EXPECT_EQ(problem_ids(tensor), (Ids{"DLP-DTYPE-CODE-UNKNOWN", "DLP-DEVICE-TYPE-UNKNOWN"}));
  auto findings = findings_of(tensor, "DLP-DEVICE-TYPE-UNKNOWN");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("0.6 to main after 1.3"), std::string::npos)
      << findings[0].message;
}

TEST(GenerationRules, BcomplexOfAnotherWidthIsMalformed) {
  for (std::uint8_t bits : {std::uint8_t{16}, std::uint8_t{64}, std::uint8_t{128}}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.dtype = {dl::kDLBcomplex, bits, 1};
    EXPECT_EQ(problem_ids(tensor), Ids{"DLP-DTYPE-BITS-FIXED"}) << int(bits);
    auto findings = findings_of(tensor, "DLP-DTYPE-BITS-FIXED");
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_NE(findings[0].message.find("set bits to 32"), std::string::npos);
  }
}

TEST(GenerationRules, BcomplexAlignsToOneComponent) {
  // Two bfloat16 components: 2-byte alignment is natural, 4 is not needed.
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dl::kDLBcomplex, 32, 1};
  tensor.data = 0x10002;
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.data = 0x10001;
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-ALIGN-ELEMENT"});
}

}  // namespace
}  // namespace dlpack_usm::rules
