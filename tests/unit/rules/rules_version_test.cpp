#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fires;
using testing::problem_ids;

TEST(VersionRules, LegacyTensorIsInfoOnly) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.abi = facts::Abi::legacy;
  auto findings = findings_of(tensor, "DLP-VERSION-LEGACY");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_EQ(findings[0].field, "version");
  EXPECT_TRUE(problem_ids(tensor).empty());
  EXPECT_FALSE(fires(clean_tensor(), "DLP-VERSION-LEGACY"));
}

TEST(VersionRules, MajorOtherThanOneIsAnError) {
  for (std::uint32_t major : {0u, 2u, 7u}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.version = {major, 0};
    tensor.body_read = false;
    auto findings = findings_of(tensor, "DLP-VERSION-MAJOR");
    ASSERT_EQ(findings.size(), 1u) << major;
    EXPECT_EQ(findings[0].field, "version.major");
    EXPECT_NE(findings[0].message.find(std::to_string(major)), std::string::npos);
    EXPECT_NE(findings[0].message.find("deleter"), std::string::npos);
    EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-VERSION-MAJOR"});
  }
  EXPECT_FALSE(fires(clean_tensor(), "DLP-VERSION-MAJOR"));
}

TEST(VersionRules, NewerMinorIsInfoUnknownToThisTool) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.version = {1, 4};
  auto findings = findings_of(tensor, "DLP-VERSION-MINOR-NEWER");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_EQ(findings[0].field, "version.minor");
  EXPECT_NE(findings[0].message.find("unknown to this tool"), std::string::npos);
  EXPECT_TRUE(problem_ids(tensor).empty());
  for (std::uint32_t minor = 0; minor <= 3; ++minor) {
    tensor.version = {1, minor};
    EXPECT_FALSE(fires(tensor, "DLP-VERSION-MINOR-NEWER")) << minor;
  }
}

TEST(VersionRules, NewerMinorTurnsUnknownValuesIntoNoFinding) {
  // A 1.4 producer may use a code 1.4 added; this tool cannot say it is
  // wrong, so the unknown-value rules stop at 1.3 and the warning says why.
  facts::TensorFacts tensor = clean_tensor();
  tensor.version = {1, 4};
  tensor.dtype = {19, 8, 1};
  tensor.device_type = 22;
  EXPECT_TRUE(problem_ids(tensor).empty());
  // So does a flag bit no release up to 1.3 defines.
  tensor.flags = 1ULL << 7;
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.flags = 0;
  tensor.version = {1, 3};
  EXPECT_EQ(problem_ids(tensor),
            (std::vector<std::string>{"DLP-DTYPE-CODE-UNKNOWN", "DLP-DEVICE-TYPE-UNKNOWN"}));
}

}  // namespace
}  // namespace dlpack_usm::rules
