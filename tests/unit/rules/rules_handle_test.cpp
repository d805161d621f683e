// For kDLOpenCL, kDLVulkan, kDLMetal and kDLWebGPU, data is a handle of the
// device's API (dlpack.h: "cl_mem handle in OpenCL. It may be opaque on
// some device types."; for kDLMetal an id<MTLBuffer>): no alignment, address
// range or allocation bound is judged on it.
#include <gtest/gtest.h>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::fired_ids;
using testing::problem_ids;

using Ids = std::vector<std::string>;

TEST(HandleRules, HandleTypedDataIsNoAddress) {
  for (std::int32_t type :
       {dlpack::kDLOpenCL, dlpack::kDLVulkan, dlpack::kDLMetal, dlpack::kDLWebGPU}) {
    facts::TensorFacts tensor = clean_tensor();
    tensor.device_type = type;
    tensor.data = 0x600001e4c0d3;  // an odd id<MTLBuffer>, cl_mem, ...
    tensor.byte_offset = 8;
    EXPECT_TRUE(fired_ids(tensor).empty()) << type;
    // Near the top of the address space: a handle does not wrap it.
    tensor.data = 0xfffffffffffffff0;
    EXPECT_TRUE(fired_ids(tensor).empty()) << type;
    // Whatever a runtime section says about an allocation.
    facts::RuntimeFacts runtime;
    runtime.alloc_base = 0x1000;
    runtime.alloc_size = 4;
    tensor.runtime = runtime;
    EXPECT_TRUE(fired_ids(tensor).empty()) << type;
  }
  // The same values on a device type whose data is an address are judged.
  facts::TensorFacts cuda = clean_tensor();
  cuda.device_type = dlpack::kDLROCM;
  cuda.data = 0x600001e4c0d3;
  EXPECT_EQ(problem_ids(cuda), Ids{"DLP-ALIGN-ELEMENT"});
}

}  // namespace
}  // namespace dlpack_usm::rules
