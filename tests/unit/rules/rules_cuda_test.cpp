#include <gtest/gtest.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "rules_test_support.hpp"
#include "runtime/cuda/cuda_driver.hpp"

namespace dlpack_usm::rules {
namespace {

using facts::CudaMemoryType;
using testing::clean_tensor;
using testing::findings_of;
using testing::fired_ids;
using testing::problem_ids;

using Ids = std::vector<std::string>;

// Device memory of CUDA device 1 of 2, exported as kDLCUDA with device_id 1,
// the tensor exactly covering the allocation.
facts::TensorFacts clean_cuda_tensor() {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = dlpack::kDLCUDA;
  tensor.device_id = 1;
  facts::RuntimeFacts runtime;
  runtime.cuda_memory_type = CudaMemoryType::device;
  runtime.cuda_ordinal = 1;
  runtime.cuda_device_count = 2;
  runtime.owner_device_name = "cuda:1 NVIDIA H200 (0000:39:00.0)";
  runtime.alloc_base = tensor.data;
  runtime.alloc_size = 24;
  tensor.runtime = runtime;
  return tensor;
}

TEST(CudaRules, ACleanTensorFiresNothing) {
  EXPECT_TRUE(evaluate(clean_cuda_tensor()).empty());
}

TEST(CudaRules, WithoutDriverFactsOnlyTheInfoFires) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.runtime.reset();
  EXPECT_EQ(fired_ids(tensor), Ids{"DLP-CUDA-NO-RUNTIME"});
  // A runtime section without the driver's memory type is no CUDA fact either.
  tensor.runtime = facts::RuntimeFacts{};
  tensor.runtime->alloc_base = tensor.data;
  tensor.runtime->alloc_size = 24;
  EXPECT_EQ(fired_ids(tensor), Ids{"DLP-CUDA-NO-RUNTIME"});
  for (std::int32_t type : {dlpack::kDLCUDAHost, dlpack::kDLCUDAManaged}) {
    tensor.device_type = type;
    tensor.device_id = 0;
    EXPECT_EQ(fired_ids(tensor), Ids{"DLP-CUDA-NO-RUNTIME"}) << type;
  }
}

TEST(CudaRules, RulesApplyOnlyToCudaDeviceTypes) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.device_type = dlpack::kDLROCM;
  tensor.device_id = 0;
  tensor.runtime->cuda_memory_type = CudaMemoryType::unregistered;
  EXPECT_TRUE(evaluate(tensor).empty());
}

TEST(CudaRules, PointerTheDriverDoesNotKnow) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.runtime = facts::RuntimeFacts{};
  tensor.runtime->cuda_memory_type = CudaMemoryType::unregistered;
  tensor.runtime->cuda_device_count = 2;
  auto findings = findings_of(tensor, "DLP-CUDA-POINTER-UNKNOWN");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "runtime.cuda_memory_type");
  EXPECT_NE(findings[0].message.find("0x10000"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-CUDA-POINTER-UNKNOWN"});
  // NULL data of a size-0 tensor has nothing to look up.
  tensor.data = 0;
  tensor.shape = std::vector<std::int64_t>{0, 3};
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(CudaRules, DeviceIdHardCodedToZero) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.device_id = 0;
  auto findings = findings_of(tensor, "DLP-CUDA-DEVICE-ID");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.device.device_id");
  EXPECT_NE(findings[0].message.find("CUDA device 1"), std::string::npos);
  EXPECT_NE(findings[0].message.find("0000:39:00.0"), std::string::npos);
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-CUDA-DEVICE-ID"});
}

TEST(CudaRules, PhysicalGpuNumberUnderAVisibleDevicesSubset) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.runtime->cuda_ordinal = 0;
  tensor.runtime->cuda_device_count = 1;
  tensor.runtime->cuda_visible_devices = "1";
  tensor.device_id = 1;
  auto findings = findings_of(tensor, "DLP-CUDA-DEVICE-ID-RANGE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("CUDA_VISIBLE_DEVICES=1"), std::string::npos);
  // One defect, one finding: the owner rule leaves an id out of range alone.
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-CUDA-DEVICE-ID-RANGE"});
  tensor.device_id = 0;
  EXPECT_TRUE(problem_ids(tensor).empty());
}

TEST(CudaRules, EachDeviceTypeWantsItsMemoryType) {
  struct Case {
    std::int32_t device_type;
    CudaMemoryType memory;
    const char* rule;  // nullptr: the pair agrees
  };
  const Case cases[] = {
      {dlpack::kDLCUDA, CudaMemoryType::device, nullptr},
      {dlpack::kDLCUDA, CudaMemoryType::host, "DLP-CUDA-DEVICE-MEMORY-TYPE"},
      {dlpack::kDLCUDA, CudaMemoryType::managed, "DLP-CUDA-DEVICE-MEMORY-TYPE"},
      {dlpack::kDLCUDA, CudaMemoryType::array, "DLP-CUDA-DEVICE-MEMORY-TYPE"},
      {dlpack::kDLCUDAHost, CudaMemoryType::host, nullptr},
      {dlpack::kDLCUDAHost, CudaMemoryType::device, "DLP-CUDA-HOST-MEMORY-TYPE"},
      {dlpack::kDLCUDAHost, CudaMemoryType::managed, "DLP-CUDA-HOST-MEMORY-TYPE"},
      {dlpack::kDLCUDAManaged, CudaMemoryType::managed, nullptr},
      {dlpack::kDLCUDAManaged, CudaMemoryType::device, "DLP-CUDA-MANAGED-MEMORY-TYPE"},
      {dlpack::kDLCUDAManaged, CudaMemoryType::host, "DLP-CUDA-MANAGED-MEMORY-TYPE"},
  };
  for (const Case& item : cases) {
    facts::TensorFacts tensor = clean_cuda_tensor();
    tensor.device_type = item.device_type;
    tensor.device_id = item.device_type == dlpack::kDLCUDA ? 1 : 0;
    tensor.runtime->cuda_memory_type = item.memory;
    Ids expected = item.rule ? Ids{item.rule} : Ids{};
    EXPECT_EQ(problem_ids(tensor), expected)
        << item.device_type << " on " << facts::to_string(item.memory);
  }
  // kDLCUDAHost and kDLCUDAManaged are defined by their allocator: other
  // memory is malformed. kDLCUDA names a GPU, which reads pinned and
  // managed memory too: labelling those kDLCUDA breaks a convention.
  EXPECT_EQ(find_rule("DLP-CUDA-HOST-MEMORY-TYPE")->severity, Severity::error);
  EXPECT_EQ(find_rule("DLP-CUDA-MANAGED-MEMORY-TYPE")->severity, Severity::error);
  EXPECT_EQ(find_rule("DLP-CUDA-DEVICE-MEMORY-TYPE")->severity, Severity::warning);
}

TEST(CudaRules, TheMessageNamesTheRightLabel) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.runtime->cuda_memory_type = CudaMemoryType::managed;
  auto findings = findings_of(tensor, "DLP-CUDA-DEVICE-MEMORY-TYPE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].field, "dl_tensor.device.device_type");
  EXPECT_NE(findings[0].message.find("kDLCUDAManaged with device_id 0"), std::string::npos)
      << findings[0].message;
  tensor.device_type = dlpack::kDLCUDAHost;
  tensor.device_id = 0;
  tensor.runtime->cuda_memory_type = CudaMemoryType::device;
  findings = findings_of(tensor, "DLP-CUDA-HOST-MEMORY-TYPE");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("kDLCUDA with device_id 1"), std::string::npos)
      << findings[0].message;
}

TEST(CudaRules, ExtentPastTheDriversAllocationIsTheAddressingRule) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.byte_offset = 12;
  EXPECT_EQ(problem_ids(tensor), Ids{"DLP-EXTENT-OUTSIDE-ALLOCATION"});
}

TEST(CudaFacts, MemoryTypesFromTheDriversAttributes) {
  using runtime::cuda::classify_memory;
  EXPECT_EQ(classify_memory(0, false), CudaMemoryType::unregistered);
  EXPECT_EQ(classify_memory(1, false), CudaMemoryType::host);
  EXPECT_EQ(classify_memory(2, false), CudaMemoryType::device);
  EXPECT_EQ(classify_memory(3, false), CudaMemoryType::array);
  // Managed memory reports the device type with IS_MANAGED set.
  EXPECT_EQ(classify_memory(2, true), CudaMemoryType::managed);
  EXPECT_EQ(classify_memory(4, false), CudaMemoryType::managed);
}

TEST(CudaFacts, CapsuleFilesKeepThemAndRefuseUnknownTypes) {
  facts::TensorFacts tensor = clean_cuda_tensor();
  tensor.runtime->cuda_visible_devices = "1,0";
  std::string text = capsule::to_capsule_json(tensor).dump();
  std::vector<facts::TensorFacts> read = capsule::parse_capsule_text(text, "test");
  ASSERT_EQ(read.size(), 1u);
  const facts::RuntimeFacts& runtime = *read[0].runtime;
  EXPECT_EQ(runtime.cuda_memory_type, CudaMemoryType::device);
  EXPECT_EQ(runtime.cuda_ordinal, 1);
  EXPECT_EQ(runtime.cuda_device_count, 2);
  EXPECT_EQ(runtime.cuda_visible_devices, "1,0");
  EXPECT_EQ(runtime.alloc_size, 24u);

  auto json = capsule::to_capsule_json(tensor);
  json["runtime"]["cuda_memory_type"] = "pinned";
  try {
    capsule::parse_capsule_text(json.dump(), "test");
    FAIL() << "an unknown memory type was accepted";
  } catch (const dlpack_usm::Error& error) {
    EXPECT_NE(std::string(error.what()).find("cuda_memory_type"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace dlpack_usm::rules
