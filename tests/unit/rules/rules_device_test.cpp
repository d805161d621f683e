#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::findings_of;
using testing::fires;
using testing::problem_ids;

using Errors = std::vector<std::string>;

TEST(DeviceRules, UnknownDeviceTypes) {
  for (std::int32_t type : {0, 5, 6, 22, -1}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.device_type = type;
    auto findings = findings_of(tensor, "DLP-DEVICE-TYPE-UNKNOWN");
    ASSERT_EQ(findings.size(), 1u) << type;
    EXPECT_EQ(findings[0].field, "dl_tensor.device.device_type");
    EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DEVICE-TYPE-UNKNOWN"}) << type;
  }
}

TEST(DeviceRules, DeviceTypeNewerThanTheDeclaredVersion) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = dl::kDLTrn;
  tensor.version = {1, 1};
  auto findings = findings_of(tensor, "DLP-DEVICE-TYPE-VERSION");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("kDLTrn"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DEVICE-TYPE-VERSION"});
  tensor.version = {1, 2};
  EXPECT_TRUE(problem_ids(tensor).empty());

  facts::TensorFacts maia = clean_tensor();
  maia.device_type = dl::kDLMAIA;
  maia.abi = facts::Abi::legacy;
  EXPECT_EQ(problem_ids(maia), Errors{"DLP-DEVICE-TYPE-VERSION"});
  maia.device_type = dl::kDLOneAPI;  // 0.7: fine in a legacy (0.8) tensor
  EXPECT_FALSE(fires(maia, "DLP-DEVICE-TYPE-VERSION"));
}

TEST(DeviceRules, NegativeDeviceId) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = dl::kDLCUDA;
  tensor.device_id = -1;
  EXPECT_EQ(problem_ids(tensor), Errors{"DLP-DEVICE-ID-NEGATIVE"});
  // Host-memory types: negative is the negative rule's finding only.
  tensor.device_type = dl::kDLCPU;
  EXPECT_FALSE(fires(tensor, "DLP-DEVICE-ID-HOST-NONZERO"));
}

TEST(DeviceRules, HostMemoryUsesDeviceIdZero) {
  for (std::int32_t type : {dl::kDLCPU, dl::kDLCUDAHost, dl::kDLROCMHost, dl::kDLCUDAManaged}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.device_type = type;
    tensor.device_id = 1;
    auto findings = findings_of(tensor, "DLP-DEVICE-ID-HOST-NONZERO");
    ASSERT_EQ(findings.size(), 1u) << type;
    EXPECT_EQ(findings[0].severity, Severity::warning);
    EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DEVICE-ID-HOST-NONZERO"});
  }
  facts::TensorFacts gpu = clean_tensor();
  gpu.device_type = dl::kDLCUDA;
  gpu.device_id = 3;
  // Only DLP-CUDA-NO-RUNTIME's note that the driver was not asked.
  EXPECT_TRUE(problem_ids(gpu).empty());
}

TEST(DeviceRules, DeviceMemoryLabelledAsHostMemory) {
  // Runtime facts are checked for every device type that has them.
  facts::TensorFacts tensor = clean_tensor();
  facts::RuntimeFacts runtime;
  runtime.usm_kind = facts::UsmKind::device;
  tensor.runtime = runtime;
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DEVICE-TYPE-NOT-RUNTIME-MEMORY"});
  tensor.runtime->usm_kind = facts::UsmKind::host;
  EXPECT_TRUE(problem_ids(tensor).empty());
  tensor.runtime->usm_kind = facts::UsmKind::shared;
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(DeviceRules, DeviceIdContradictingTheRecordedOwner) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = dl::kDLCUDA;
  tensor.device_id = 1;
  facts::RuntimeFacts runtime;
  runtime.usm_kind = facts::UsmKind::device;
  runtime.owner_root_index = 0;
  tensor.runtime = runtime;
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-DEVICE-ID-NOT-OWNER"});
  tensor.device_id = 0;
  EXPECT_TRUE(problem_ids(tensor).empty());
  // With the CUDA driver's ordinal, DLP-CUDA-DEVICE-ID judges the index:
  // one wrong index, one error.
  tensor.device_id = 1;
  tensor.runtime->cuda_memory_type = facts::CudaMemoryType::device;
  tensor.runtime->cuda_ordinal = 0;
  tensor.runtime->cuda_device_count = 2;
  EXPECT_EQ(problem_ids(tensor), std::vector<std::string>{"DLP-CUDA-DEVICE-ID"});
  // kDLOneAPI has its own rules for the owner (DLP-ONEAPI-DEVICE-ID-ROOT).
  tensor = testing::clean_oneapi_tensor();
  tensor.device_id = 0;
  EXPECT_FALSE(fires(tensor, "DLP-DEVICE-ID-NOT-OWNER"));
}

}  // namespace
}  // namespace dlpack_usm::rules
