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

TEST(AlignmentRules, FirstElementNaturallyAligned) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.data = 0x10002;
  auto findings = findings_of(tensor, "DLP-ALIGN-ELEMENT");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.data");
  EXPECT_NE(findings[0].message.find("0x10002"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ALIGN-ELEMENT"});
}

TEST(AlignmentRules, ComplexNeedsOneComponentsAlignment) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dlpack::kDLComplex, 64, 1};
  tensor.data = 0x10004;  // aligned for float, not for complex64 as a whole
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.data = 0x10002;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ALIGN-ELEMENT"});
}

TEST(AlignmentRules, ByteOffsetThatRealignsIsFine) {
  // The first element is data + byte_offset: a whole-element offset keeps
  // a misaligned data pointer misaligned, and leaves an aligned one aligned.
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype = {dlpack::kDLInt, 16, 1};
  tensor.data = 0x10001;
  tensor.byte_offset = 2;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ALIGN-ELEMENT"});
  EXPECT_EQ(findings_of(tensor, "DLP-ALIGN-ELEMENT")[0].field, "dl_tensor.data+byte_offset");
  tensor.data = 0x10000;
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(AlignmentRules, NotJudgedWhereThereIsNoAddress) {
  // Sub-byte types, opaque cl_mem handles and empty tensors.
  facts::TensorFacts sub_byte = clean_tensor();
  sub_byte.dtype = {dlpack::kDLFloat4_e2m1fn, 4, 1};
  sub_byte.data = 0x10001;
  EXPECT_FALSE(fires(sub_byte, "DLP-ALIGN-ELEMENT"));

  facts::TensorFacts handle = clean_tensor();
  handle.device_type = dlpack::kDLOpenCL;
  handle.data = 0x5555;
  EXPECT_TRUE(evaluate(handle).empty());

  facts::TensorFacts empty = clean_tensor();
  empty.shape = std::vector<std::int64_t>{0, 3};
  empty.data = 0x10003;
  EXPECT_EQ(fired_ids(empty), std::vector<std::string>{"DLP-DATA-EMPTY-NOT-NULL"});
}

TEST(AlignmentRules, Not256AlignedIsInfo) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.data = 0x10040;
  auto findings = findings_of(tensor, "DLP-ALIGN-256");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::info);
  EXPECT_NE(findings[0].message.find("aligned to 64 bytes"), std::string::npos);
  EXPECT_TRUE(problem_ids(tensor).empty());
}

}  // namespace
}  // namespace dlpack_usm::rules
