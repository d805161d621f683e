#include "plugin/host_table.hpp"

#include <algorithm>
#include <cstring>

#include "build_info.hpp"
#include "common/error.hpp"
#include "exchange/pattern.hpp"

namespace dlpack_usm::plugin {
namespace {

// The table whose runtime the C callbacks use. A plugin may call them from
// any thread, but only while the table lives (the whole child process).
runtime::Runtime* g_runtime = nullptr;

void host_pattern_element(std::uint64_t index, std::uint64_t element_bytes, void* out) {
  exchange::pattern_element(index, element_bytes, static_cast<std::byte*>(out));
}

int host_usm_memcpy(std::int32_t device_id, void* destination, const void* source,
                    std::size_t bytes) {
  // Nothing may throw across the C boundary.
  try {
    if (g_runtime == nullptr) return DLPACK_USM_FAILED;
    runtime::DeviceRef root{device_id, std::nullopt};
    const runtime::PlatformInfo* platform = g_runtime->inventory().platform_of(root);
    if (platform == nullptr) return DLPACK_USM_FAILED;
    g_runtime->copy(g_runtime->default_context(platform->index), root, destination, source, bytes);
    return DLPACK_USM_OK;
  } catch (...) {
    return DLPACK_USM_FAILED;
  }
}

void* host_dpctl_symbol(const char* name) {
  return name == nullptr ? nullptr : runtime::dpctl_symbol(name);
}

}  // namespace

std::uint32_t usm_kind_code(facts::UsmKind kind) {
  switch (kind) {
    case facts::UsmKind::host:
      return DLPACK_USM_KIND_HOST;
    case facts::UsmKind::device:
      return DLPACK_USM_KIND_DEVICE;
    case facts::UsmKind::shared:
      return DLPACK_USM_KIND_SHARED;
    case facts::UsmKind::unknown:
      break;
  }
  return 0;
}

std::uint32_t usm_kind_bits(const runtime::DeviceInfo& device) {
  if (!device.usm) return 0;
  std::uint32_t bits = 0;
  if (device.usm->host.allows_access()) bits |= 1u << DLPACK_USM_KIND_HOST;
  if (device.usm->device.allows_access()) bits |= 1u << DLPACK_USM_KIND_DEVICE;
  if (device.usm->single_device_shared.allows_access()) bits |= 1u << DLPACK_USM_KIND_SHARED;
  return bits;
}

HostTable::HostTable(runtime::Runtime& runtime) {
  if (g_runtime != nullptr) {
    throw Error(ExitCode::internal, "a second plugin host table in one process");
  }
  const runtime::Inventory& inventory = runtime.inventory();
  std::int32_t count = inventory.root_device_count();
  devices_.resize(static_cast<std::size_t>(count));
  names_.resize(devices_.size());
  sub_devices_.resize(devices_.size());
  sycl_sub_devices_.resize(devices_.size());
  runtime_name_ = inventory.backend;
  bool sycl = runtime_name_ == "sycl";
  for (const runtime::PlatformInfo& platform : inventory.platforms) {
    if (platform.devices.empty()) continue;
    // Only a platform with USM gets its default context made: a plugin cannot
    // allocate USM elsewhere, and creating a context on NVIDIA's OpenCL
    // platform starts CUDA, which cost every plugin case about 2.5 s there.
    bool any_usm =
        std::any_of(platform.devices.begin(), platform.devices.end(),
                    [](const runtime::DeviceInfo& root) { return root.usm.has_value(); });
    void* context = any_usm ? runtime.default_context(platform.index).handle : nullptr;
    for (const runtime::DeviceInfo& root : platform.devices) {
      auto slot = static_cast<std::size_t>(root.ref.root_index);
      runtime::NativeHandles native = runtime.native_handles(root.ref);
      names_[slot] = root.selector_name;
      runtime::SyclHandles sycl_root = runtime.sycl_handles(root.ref);
      for (const runtime::DeviceInfo& sub : root.sub_devices) {
        sub_devices_[slot].push_back(runtime.native_handles(sub.ref).device);
        sycl_sub_devices_[slot].push_back(runtime.sycl_handles(sub.ref).device);
      }
      DlpackUsmDevice& device = devices_[slot];
      device.struct_size = sizeof(DlpackUsmDevice);
      device.device_id = root.ref.root_index;
      device.cl_platform = native.platform;
      device.cl_device = native.device;
      device.cl_context = sycl ? nullptr : context;
      device.name = names_[slot].c_str();
      device.usm_kinds = usm_kind_bits(root);
      device.sub_device_count = static_cast<std::int32_t>(sub_devices_[slot].size());
      device.cl_sub_devices =
          sycl || sub_devices_[slot].empty() ? nullptr : sub_devices_[slot].data();
      device.sycl_device = sycl_root.device;
      device.sycl_context = sycl_root.default_context;
      device.sycl_sub_devices =
          !sycl || sycl_sub_devices_[slot].empty() ? nullptr : sycl_sub_devices_[slot].data();
    }
  }
  host_.struct_size = sizeof(DlpackUsmHost);
  host_.abi_version = DLPACK_USM_PLUGIN_ABI_VERSION;
  host_.tool_version = kToolVersion;
  host_.root_device_count = count;
  host_.root_devices = devices_.empty() ? nullptr : devices_.data();
  host_.pattern_element = host_pattern_element;
  host_.usm_memcpy = host_usm_memcpy;
  host_.runtime = runtime_name_.c_str();
  host_.dpctl_symbol = sycl ? host_dpctl_symbol : nullptr;
  g_runtime = &runtime;
}

HostTable::~HostTable() {
  g_runtime = nullptr;
}

}  // namespace dlpack_usm::plugin
