// The C accessor of default contexts that libraries loaded into the process
// use: it must hand out the very context the exchange checks against.
#include <gtest/gtest.h>

#include "runtime/default_context_api.h"
#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {
namespace {

TEST(DefaultContextApi, HandsOutTheRuntimesDefaultContext) {
  Runtime& runtime = opencl_runtime();
  std::int32_t count = runtime.inventory().root_device_count();
  EXPECT_EQ(dlpack_usm_root_device_count(), count);
  if (count == 0) GTEST_SKIP() << "no OpenCL root device on this machine";
  for (std::int32_t id = 0; id < count; ++id) {
    const PlatformInfo* platform = runtime.inventory().platform_of(DeviceRef{id, {}});
    ASSERT_NE(platform, nullptr);
    void* context = dlpack_usm_default_context(id);
    ASSERT_NE(context, nullptr) << "device_id " << id;
    EXPECT_EQ(context, runtime.default_context(platform->index).handle);
  }
}

TEST(DefaultContextApi, UnknownDeviceIdsGetNull) {
  EXPECT_EQ(dlpack_usm_default_context(-1), nullptr);
  EXPECT_EQ(dlpack_usm_default_context(dlpack_usm_root_device_count()), nullptr);
}

TEST(DefaultContextApi, TableMatchesTheFunctions) {
  const DlpackUsmHostApi* api = dlpack_usm_host_api();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->struct_size, sizeof(DlpackUsmHostApi));
  EXPECT_EQ(api->version, DLPACK_USM_HOST_API_VERSION);
  EXPECT_EQ(api->default_context, &dlpack_usm_default_context);
  EXPECT_EQ(api->root_device_count, &dlpack_usm_root_device_count);
}

}  // namespace
}  // namespace dlpack_usm::runtime
