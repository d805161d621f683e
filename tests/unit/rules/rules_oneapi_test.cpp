#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_oneapi_tensor;
using testing::findings_of;
using testing::fired_ids;
using testing::fires;
using testing::problem_ids;

using Errors = std::vector<std::string>;

TEST(OneApiRules, WithoutRuntimeFactsOnlyTheInfoFires) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime.reset();
  EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-ONEAPI-NO-RUNTIME"});
}

TEST(OneApiRules, RulesApplyOnlyToOneApiTensors) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.device_type = dlpack::kDLROCM;
  tensor.runtime->usm_kind = facts::UsmKind::unknown;
  tensor.runtime->default_context = false;
  EXPECT_TRUE(evaluate(tensor).empty());
}

TEST(OneApiRules, NonDefaultContext) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime->default_context = false;
  auto findings = findings_of(tensor, "DLP-ONEAPI-CONTEXT-NOT-DEFAULT");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "runtime.default_context");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-CONTEXT-NOT-DEFAULT"});
  // The lookup in the default context then says "unknown": same defect.
  tensor.runtime->usm_kind = facts::UsmKind::unknown;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-CONTEXT-NOT-DEFAULT"});
}

TEST(OneApiRules, PointerUnknownToTheDefaultContext) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime = facts::RuntimeFacts{};
  tensor.runtime->usm_kind = facts::UsmKind::unknown;
  tensor.runtime->root_device_count = 2;
  auto findings = findings_of(tensor, "DLP-ONEAPI-USM-UNKNOWN");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "runtime.usm_kind");
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-USM-UNKNOWN"});
}

TEST(OneApiRules, DeviceIdOfARootAllocation) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.device_id = 0;  // owner is root 1
  auto findings = findings_of(tensor, "DLP-ONEAPI-DEVICE-ID-ROOT");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.device.device_id");
  EXPECT_NE(findings[0].message.find("root device 1"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-DEVICE-ID-ROOT"});
}

TEST(OneApiRules, SubDeviceAllocationReportsItsParent) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime->owner_sub_device_index = 1;
  tensor.runtime->owner_device_name = "opencl:cpu:1.1";
  EXPECT_TRUE(evaluate(tensor).empty());  // device_id 1 = parent root 1
  tensor.device_id = 0;                   // e.g. the sub-device's own position
  auto findings = findings_of(tensor, "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("sub-device 1 of root device 1"), std::string::npos);
  // The two device_id rules never fire together.
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-DEVICE-ID-SUB-DEVICE"});
}

TEST(OneApiRules, DeviceIdBeyondTheRootDevices) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.device_id = 2;  // two root devices: 0 and 1
  auto findings = findings_of(tensor, "DLP-ONEAPI-DEVICE-ID-RANGE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-DEVICE-ID-RANGE"});
  tensor.runtime->owner_sub_device_index = 0;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-ONEAPI-DEVICE-ID-RANGE"});
  // A negative id is the device family's finding only.
  tensor.device_id = -1;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DEVICE-ID-NEGATIVE"});
}

TEST(OneApiRules, HostAndSharedUsmAreInfo) {
  for (facts::UsmKind kind : {facts::UsmKind::host, facts::UsmKind::shared}) {
    facts::TensorFacts tensor = clean_oneapi_tensor();
    tensor.runtime->usm_kind = kind;
    EXPECT_EQ(fired_ids(tensor), std::vector<std::string>{"DLP-ONEAPI-USM-NOT-DEVICE"});
  }
  EXPECT_FALSE(fires(clean_oneapi_tensor(), "DLP-ONEAPI-USM-NOT-DEVICE"));
}

TEST(OneApiRules, HostUsmHasNoOwningRootDevice) {
  // SYCL names the context's first device for a host allocation; that is
  // no owner for device_id to contradict.
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.runtime->usm_kind = facts::UsmKind::host;
  tensor.runtime->owner_root_index = 0;
  EXPECT_FALSE(fires(tensor, "DLP-ONEAPI-DEVICE-ID-ROOT"));
  tensor.runtime->owner_sub_device_index = 0;
  EXPECT_FALSE(fires(tensor, "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE"));
  tensor.runtime->usm_kind = facts::UsmKind::device;
  EXPECT_TRUE(fires(tensor, "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE"));
}

TEST(OneApiRules, SizeZeroWithNullDataIsNoPointerToLookUp) {
  facts::TensorFacts tensor = clean_oneapi_tensor();
  tensor.data = 0;
  tensor.shape = std::vector<std::int64_t>{0, 3};
  tensor.runtime->usm_kind = facts::UsmKind::unknown;
  tensor.runtime->default_context.reset();
  EXPECT_FALSE(fires(tensor, "DLP-ONEAPI-USM-UNKNOWN"));
  // With elements, NULL is a pointer no context knows.
  tensor.shape = std::vector<std::int64_t>{2, 3};
  EXPECT_TRUE(fires(tensor, "DLP-ONEAPI-USM-UNKNOWN"));
}

}  // namespace
}  // namespace dlpack_usm::rules
