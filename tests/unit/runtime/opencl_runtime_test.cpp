// The OpenCL runtime on the real devices of this machine: every USM kind on
// every USM-capable root and sub-device, in the default and a separate
// context, asked back through clGetMemAllocInfoINTEL.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "allocation_reporting.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {
namespace {

using facts::UsmKind;

std::vector<const DeviceInfo*> usm_devices(bool include_sub_devices) {
  std::vector<const DeviceInfo*> devices;
  for (const auto& [platform, root] : opencl_runtime().inventory().roots()) {
    if (root.usm) devices.push_back(&root);
    if (!include_sub_devices) continue;
    for (const DeviceInfo& sub : root.sub_devices) {
      if (sub.usm) devices.push_back(&sub);
    }
  }
  return devices;
}

#define SKIP_WITHOUT_USM(devices) \
  if ((devices).empty()) GTEST_SKIP() << "no OpenCL device with cl_intel_unified_shared_memory"

TEST(OpenClRuntime, DeviceIdsAreConsecutiveRootIndices) {
  std::int32_t expected = 0;
  for (const auto& [platform, root] : opencl_runtime().inventory().roots()) {
    EXPECT_EQ(root.dlpack_device_id(), expected++);
    for (const DeviceInfo& sub : root.sub_devices) {
      EXPECT_EQ(sub.dlpack_device_id(), root.dlpack_device_id()) << sub.selector_name;
    }
  }
  EXPECT_EQ(opencl_runtime().inventory().root_device_count(), expected);
}

TEST(OpenClRuntime, DefaultContextIsCreatedOncePerPlatform) {
  auto devices = usm_devices(false);
  SKIP_WITHOUT_USM(devices);
  const PlatformInfo* platform = opencl_runtime().inventory().platform_of(devices[0]->ref);
  ASSERT_NE(platform, nullptr);
  ContextRef first = opencl_runtime().default_context(platform->index);
  ContextRef second = opencl_runtime().default_context(platform->index);
  EXPECT_EQ(first.handle, second.handle);
  EXPECT_TRUE(first.is_platform_default);
}

TEST(OpenClRuntime, EveryKindAllocatesAndAnswersQueries) {
  auto devices = usm_devices(true);
  SKIP_WITHOUT_USM(devices);
  for (const DeviceInfo* device : devices) {
    for (UsmKind kind : {UsmKind::host, UsmKind::device, UsmKind::shared}) {
      SCOPED_TRACE(std::string(device->selector_name) + " " + facts::to_string(kind));
      UsmBuffer buffer =
          opencl_runtime().allocate(device->ref, kind, 4096, ContextChoice::platform_default);
      ASSERT_TRUE(buffer);
      PointerInfo info = opencl_runtime().query(buffer.data(), buffer.context());
      EXPECT_EQ(info.kind, kind);
      EXPECT_EQ(info.base, reinterpret_cast<std::uint64_t>(buffer.data()));
      EXPECT_GE(info.size, 4096u);
      EXPECT_EQ(info.owner, testing::expected_owner(device->ref, kind));
      // An interior pointer belongs to the same allocation.
      auto* interior = static_cast<char*>(buffer.data()) + 100;
      EXPECT_EQ(opencl_runtime().query(interior, buffer.context()).base, info.base);
    }
  }
}

TEST(OpenClRuntime, SeparateContextAllocationIsUnknownToTheDefaultContext) {
  auto devices = usm_devices(false);
  SKIP_WITHOUT_USM(devices);
  UsmBuffer buffer =
      opencl_runtime().allocate(devices[0]->ref, UsmKind::device, 256, ContextChoice::separate);
  EXPECT_FALSE(buffer.context().is_platform_default);
  ContextRef default_context = opencl_runtime().default_context(buffer.context().platform_index);
  EXPECT_NE(buffer.context().handle, default_context.handle);
  // Where the runtime scopes its answers to the context asked, the default
  // context does not know the allocation; PoCL 5.0 answers its kind anyway.
  EXPECT_EQ(opencl_runtime().query(buffer.data(), default_context).kind,
            testing::allocation_reporting(devices[0]->ref).queries_scoped_to_context
                ? UsmKind::unknown
                : UsmKind::device);
  EXPECT_EQ(opencl_runtime().query(buffer.data(), buffer.context()).kind, UsmKind::device);
}

TEST(OpenClRuntime, HostMemoryIsUnknownToEveryContext) {
  auto devices = usm_devices(false);
  SKIP_WITHOUT_USM(devices);
  std::vector<int> plain(64);
  ContextRef context = opencl_runtime().default_context(
      opencl_runtime().inventory().platform_of(devices[0]->ref)->index);
  EXPECT_EQ(opencl_runtime().query(plain.data(), context).kind, UsmKind::unknown);
}

TEST(OpenClRuntime, CopyMovesBytesThroughTheDevice) {
  auto devices = usm_devices(true);
  SKIP_WITHOUT_USM(devices);
  for (const DeviceInfo* device : devices) {
    SCOPED_TRACE(device->selector_name);
    std::vector<std::uint8_t> pattern(1000);
    std::iota(pattern.begin(), pattern.end(), std::uint8_t{7});
    UsmBuffer on_device = opencl_runtime().allocate(device->ref, UsmKind::device, pattern.size(),
                                                    ContextChoice::platform_default);
    opencl_runtime().copy(on_device.context(), device->ref, on_device.data(), pattern.data(),
                          pattern.size());
    std::vector<std::uint8_t> back(pattern.size());
    opencl_runtime().copy(on_device.context(), device->ref, back.data(), on_device.data(),
                          back.size());
    EXPECT_EQ(back, pattern);
  }
}

}  // namespace
}  // namespace dlpack_usm::runtime
