// The host table a library under test receives must hand out the very
// default contexts the exchange checks against, and the tool's pattern; the
// --producer/--consumer values must name the library (and symbol) meant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "exchange/pattern.hpp"
#include "plugin/host_table.hpp"
#include "plugin/plugin_spec.hpp"
#include "runtime/runtime.hpp"
#include "sycl_presence.hpp"

namespace dlpack_usm::plugin {
namespace {

TEST(PluginHostTable, HandsOutEveryRootDeviceWithItsPlatformsDefaultContext) {
  runtime::Runtime& runtime = runtime::opencl_runtime();
  HostTable table(runtime);
  const DlpackUsmHost* host = table.get();
  EXPECT_EQ(host->struct_size, sizeof(DlpackUsmHost));
  EXPECT_EQ(host->abi_version, DLPACK_USM_PLUGIN_ABI_VERSION);
  ASSERT_EQ(host->root_device_count, runtime.inventory().root_device_count());
  if (host->root_device_count == 0) GTEST_SKIP() << "no OpenCL root device on this machine";
  for (std::int32_t id = 0; id < host->root_device_count; ++id) {
    const DlpackUsmDevice& device = host->root_devices[id];
    runtime::DeviceRef ref{id, std::nullopt};
    const runtime::PlatformInfo* platform = runtime.inventory().platform_of(ref);
    const runtime::DeviceInfo* info = runtime.inventory().find(ref);
    ASSERT_NE(platform, nullptr);
    EXPECT_EQ(device.device_id, id);
    bool platform_has_usm =
        std::any_of(platform->devices.begin(), platform->devices.end(),
                    [](const runtime::DeviceInfo& root) { return root.usm.has_value(); });
    // No context is made where no device could allocate USM in it.
    EXPECT_EQ(device.cl_context,
              platform_has_usm ? runtime.default_context(platform->index).handle : nullptr);
    EXPECT_EQ(device.cl_device, runtime.native_handles(ref).device);
    EXPECT_STREQ(device.name, info->selector_name.c_str());
    EXPECT_EQ(device.usm_kinds, usm_kind_bits(*info));
    ASSERT_EQ(device.sub_device_count, static_cast<std::int32_t>(info->sub_devices.size()));
    for (std::int32_t k = 0; k < device.sub_device_count; ++k) {
      EXPECT_EQ(device.cl_sub_devices[k], runtime.native_handles(info->sub_devices[k].ref).device);
    }
  }
  std::byte expected[16];
  std::byte given[16];
  exchange::pattern_element(7, 16, expected);
  host->pattern_element(7, 16, given);
  EXPECT_EQ(std::memcmp(expected, given, 16), 0);
  EXPECT_EQ(host->usm_memcpy(-1, given, expected, 16), DLPACK_USM_FAILED);
}

// Plugin ABI 2 on the SYCL runtime: dpctl's references of every device and
// default context, dpctl's own functions, and no OpenCL handle to misuse.
TEST(PluginHostTable, OnSyclHandsOutDpctlsReferencesAndFunctions) {
  SKIP_WITHOUT_SYCL();
  std::string why;
  runtime::Runtime* runtime = runtime::sycl_runtime_or_null(&why);
  ASSERT_NE(runtime, nullptr) << why;
  HostTable table(*runtime);
  const DlpackUsmHost* host = table.get();
  EXPECT_STREQ(host->runtime, "sycl");
  ASSERT_NE(host->dpctl_symbol, nullptr);
  EXPECT_NE(host->dpctl_symbol("DPCTLmalloc_device"), nullptr);
  EXPECT_EQ(host->dpctl_symbol("NoSuchDpctlFunction"), nullptr);
  ASSERT_GT(host->root_device_count, 0);
  for (std::int32_t id = 0; id < host->root_device_count; ++id) {
    const DlpackUsmDevice& device = host->root_devices[id];
    runtime::DeviceRef ref{id, std::nullopt};
    runtime::SyclHandles sycl = runtime->sycl_handles(ref);
    EXPECT_EQ(device.sycl_device, sycl.device);
    EXPECT_NE(device.sycl_device, nullptr);
    EXPECT_EQ(device.sycl_context, sycl.default_context);
    EXPECT_EQ(device.sycl_context,
              runtime->default_context(runtime->inventory().platform_of(ref)->index).handle);
    EXPECT_EQ(device.cl_context, nullptr);
    EXPECT_EQ(device.cl_device, nullptr);
    const runtime::DeviceInfo* info = runtime->inventory().find(ref);
    for (std::int32_t k = 0; k < device.sub_device_count; ++k) {
      EXPECT_EQ(device.sycl_sub_devices[k], runtime->sycl_handles(info->sub_devices[k].ref).device);
    }
  }
}

TEST(PluginSpec, ASymbolIsSplitOffOnlyWhenTheWholeNamesNoFile) {
  PluginSpec plain = parse_plugin_spec(Role::producer, "lib/libx.so");
  EXPECT_EQ(plain.path, "lib/libx.so");
  EXPECT_FALSE(plain.exchange_api());
  PluginSpec api = parse_plugin_spec(Role::producer, "lib/libx.so:x_exchange_api");
  EXPECT_EQ(api.path, "lib/libx.so");
  EXPECT_EQ(api.symbol, "x_exchange_api");
  EXPECT_EQ(api.text(), "lib/libx.so:x_exchange_api");
  // Not an identifier after the colon: part of the path.
  EXPECT_EQ(parse_plugin_spec(Role::producer, "dir:1/libx.so").path, "dir:1/libx.so");
  // A file whose name has a colon is that file.
  std::filesystem::path odd = std::filesystem::temp_directory_path() / "dlpack-usm-odd:name";
  std::ofstream(odd) << "";
  EXPECT_EQ(parse_plugin_spec(Role::producer, odd.string()).path, odd.string());
  std::filesystem::remove(odd);
}

TEST(PluginSpec, EmptyPathsAndConsumerSymbolsAreUsageErrors) {
  for (auto [role, text] : {std::pair{Role::producer, ""}, std::pair{Role::producer, ":sym"},
                            std::pair{Role::consumer, "libx.so:sym"}}) {
    try {
      parse_plugin_spec(role, text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::usage) << text;
    }
  }
}

TEST(PluginSpec, ArgumentsNameEverySpecAgain) {
  std::vector<PluginSpec> specs{parse_plugin_spec(Role::producer, "/p.so:api"),
                                parse_plugin_spec(Role::consumer, "/c.so")};
  EXPECT_EQ(plugin_arguments(specs),
            (std::vector<std::string>{"--producer", "/p.so:api", "--consumer", "/c.so"}));
}

}  // namespace
}  // namespace dlpack_usm::plugin
