#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fired_ids;
using testing::fires;
using testing::problem_ids;

TEST(FlagsRules, UnknownBitsAreAWarningAsTheHeaderSaysShould) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.flags = dlpack::kFlagReadOnly | (1ULL << 5) | (1ULL << 63);
  auto findings = findings_of(tensor, "DLP-FLAGS-UNKNOWN-BITS");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "flags");
  EXPECT_NE(findings[0].message.find("0x8000000000000020"), std::string::npos);
  EXPECT_EQ(findings[0].severity, Severity::warning);
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-FLAGS-UNKNOWN-BITS"});
  tensor.flags = dlpack::kFlagReadOnly | dlpack::kFlagIsCopied;
  EXPECT_FALSE(fires(tensor, "DLP-FLAGS-UNKNOWN-BITS"));
}

TEST(FlagsRules, PaddedFlagNeedsRelease11) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dlpack::kDLUInt, 4, 1};
  tensor.flags = dlpack::kFlagIsSubbyteTypePadded;
  tensor.version = {1, 0};
  // Judged by its own declared version, where bit 2 is a bit no release
  // defines yet: "should be set to 0", a warning.
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-FLAGS-PADDED-VERSION"});
  EXPECT_FALSE(has_errors(evaluate(tensor)));
  tensor.version = {1, 1};
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(FlagsRules, PaddedFlagOnlyOnSubByteTypes) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.flags = dlpack::kFlagIsSubbyteTypePadded;
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-FLAGS-PADDED-NOT-SUBBYTE"});
  // The header says when the bit can be set, not that it must not be set
  // elsewhere: the tool's judgement, an info.
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.dtype = {dlpack::kDLFloat4_e2m1fn, 4, 1};
  EXPECT_TRUE(fired_ids(tensor).empty());
  tensor.dtype = {dlpack::kDLFloat6_e3m2fn, 6, 1};
  EXPECT_TRUE(fired_ids(tensor).empty());
  // bits 0 is the dtype family's finding alone.
  tensor.dtype = {dlpack::kDLFloat, 0, 1};
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DTYPE-BITS-ZERO"});
}

TEST(FlagsRules, ReadOnlyAndIsCopiedAreInfo) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.flags = dlpack::kFlagReadOnly | dlpack::kFlagIsCopied;
  EXPECT_EQ(fired_ids(tensor),
            (std::vector<std::string>{"DLP-FLAGS-READ-ONLY", "DLP-FLAGS-IS-COPIED"}));
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.flags = dlpack::kFlagIsCopied;
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-FLAGS-IS-COPIED"});
}

TEST(FlagsRules, LegacyTensorsHaveNoFlags) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.abi = facts::Abi::legacy;
  tensor.flags = 0xff;  // a reader never sets these; the rules ignore them anyway
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-VERSION-LEGACY"});
}

}  // namespace
}  // namespace dlpack_usm::rules
