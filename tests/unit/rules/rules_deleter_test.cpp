#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;

TEST(DeleterRules, NullDeleterIsInfo) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.has_deleter = false;
  auto findings = findings_of(tensor, "DLP-DELETER-NULL");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_EQ(findings[0].field, "deleter");
  EXPECT_FALSE(has_errors(evaluate(tensor)));
  EXPECT_TRUE(findings_of(clean_tensor(), "DLP-DELETER-NULL").empty());
}

TEST(DeleterRules, RunsEvenWhenTheBodyWasNotRead) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.version = {3, 1};
  tensor.body_read = false;
  tensor.has_deleter = false;
  EXPECT_EQ(findings_of(tensor, "DLP-DELETER-NULL").size(), 1u);
}

}  // namespace
}  // namespace dlpack_usm::rules
