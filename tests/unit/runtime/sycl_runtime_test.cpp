// The SYCL runtime (dpctl's C interface) on the real devices of this
// machine: SYCL's own ids, one default context per platform, every USM kind
// on every USM root device asked back through sycl::get_pointer_type and
// get_pointer_device, and SYCL's own word on sub-devices.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"
#include "sycl_presence.hpp"

namespace dlpack_usm::runtime {
namespace {

using facts::UsmKind;

// The interface is installed by scripts/setup.sh; its absence fails here.
Runtime& sycl() {
  std::string why;
  Runtime* runtime = sycl_runtime_or_null(&why);
  if (runtime == nullptr) {
    ADD_FAILURE() << why;
    std::abort();
  }
  return *runtime;
}

std::vector<const DeviceInfo*> usm_roots() {
  std::vector<const DeviceInfo*> roots;
  for (const auto& [platform, root] : sycl().inventory().roots()) {
    if (root.usm) roots.push_back(&root);
  }
  return roots;
}

TEST(SyclRuntime, NamesItsRuntimeAndOrderingModel) {
  SKIP_WITHOUT_SYCL();
  EXPECT_EQ(sycl().inventory().backend, "sycl");
  EXPECT_EQ(sycl().inventory().ordering_model, "sycl-get-devices");
  for (const auto& [platform, root] : sycl().inventory().roots()) {
    ASSERT_TRUE(root.sycl_filter.has_value());
    EXPECT_EQ(root.sycl_filter->rfind(root.backend + ":", 0), 0u) << *root.sycl_filter;
  }
}

TEST(SyclRuntime, DefaultContextIsOnePerPlatform) {
  SKIP_WITHOUT_SYCL();
  auto roots = usm_roots();
  ASSERT_FALSE(roots.empty()) << "SYCL lists no device with USM";
  const PlatformInfo* platform = sycl().inventory().platform_of(roots[0]->ref);
  ASSERT_NE(platform, nullptr);
  ContextRef first = sycl().default_context(platform->index);
  EXPECT_EQ(first.handle, sycl().default_context(platform->index).handle);
  EXPECT_TRUE(first.is_platform_default);
  EXPECT_EQ(sycl().sycl_handles(roots[0]->ref).default_context, first.handle);
}

TEST(SyclRuntime, EveryKindAllocatesAndAnswersQueries) {
  SKIP_WITHOUT_SYCL();
  auto roots = usm_roots();
  ASSERT_FALSE(roots.empty());
  for (const DeviceInfo* device : roots) {
    for (UsmKind kind : {UsmKind::host, UsmKind::device, UsmKind::shared}) {
      SCOPED_TRACE(device->selector_name + " " + facts::to_string(kind));
      UsmBuffer buffer = sycl().allocate(device->ref, kind, 4096, ContextChoice::platform_default);
      ASSERT_TRUE(buffer);
      PointerInfo info = sycl().query(static_cast<char*>(buffer.data()) + 100, buffer.context());
      EXPECT_EQ(info.kind, kind);
      EXPECT_EQ(info.base, reinterpret_cast<std::uint64_t>(buffer.data()));
      EXPECT_EQ(info.size, 4096u);
      // Host USM belongs to no device; the runtime names none.
      EXPECT_EQ(info.owner, kind == UsmKind::host ? std::nullopt : std::optional(device->ref));
      std::vector<char> out(4096, 1), back(4096, 0);
      sycl().copy(buffer.context(), device->ref, buffer.data(), out.data(), out.size());
      sycl().copy(buffer.context(), device->ref, back.data(), buffer.data(), back.size());
      EXPECT_EQ(std::memcmp(out.data(), back.data(), out.size()), 0);
    }
  }
}

TEST(SyclRuntime, MallocedMemoryIsUnknownUsm) {
  SKIP_WITHOUT_SYCL();
  auto roots = usm_roots();
  ASSERT_FALSE(roots.empty());
  std::vector<char> plain(64);
  ContextRef context = sycl().default_context(sycl().inventory().platform_of(roots[0]->ref)->index);
  EXPECT_EQ(sycl().query(plain.data(), context).kind, UsmKind::unknown);
}

// SYCL decides whether a sub-device may use its platform's default context;
// wherever it may not, its USM still works in a context of its own.
TEST(SyclRuntime, SubDevicesAllocateWhereSyclLetsThem) {
  SKIP_WITHOUT_SYCL();
  for (const DeviceInfo* root : usm_roots()) {
    for (const DeviceInfo& sub : root->sub_devices) {
      SCOPED_TRACE(sub.selector_name);
      ContextChoice choice = sycl().default_context_holds(sub.ref) ? ContextChoice::platform_default
                                                                   : ContextChoice::separate;
      UsmBuffer buffer = sycl().allocate(sub.ref, UsmKind::device, 256, choice);
      PointerInfo info = sycl().query(buffer.data(), buffer.context());
      EXPECT_EQ(info.kind, UsmKind::device);
      EXPECT_EQ(info.owner, std::optional<DeviceRef>(sub.ref));
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::runtime
