#include "runtime/sycl/sycl_topology.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "runtime/handle_lookup.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

std::string device_type_name(int type) {
  switch (type) {
    case kDeviceCpu:
      return "cpu";
    case kDeviceGpu:
      return "gpu";
    case kDeviceAccelerator:
      return "accelerator";
    case kDeviceCustom:
      return "custom";
    default:
      return "unknown";
  }
}

// What an aspect says of a capability word: access, and atomic access where
// SYCL has an aspect for it. The rest of the word is unknown (nullopt) unless
// access itself is absent, which leaves nothing to qualify.
UsmAccess aspect_access(bool access, std::optional<bool> atomic_access) {
  if (!access) return UsmAccess{};
  return UsmAccess{true, atomic_access, std::nullopt, std::nullopt};
}

// SYCL reports USM as aspects (usm_*_allocations, usm_atomic_*_allocations):
// no aspect covers concurrent access, atomics on device allocations, or
// cross-device shared memory, so those bits are unknown, not unsupported.
std::optional<UsmCapabilities> usm_capabilities(const DpctlApi& api, SyclDeviceRef device) {
  auto has = [&api, device](int aspect) { return api.DPCTLDevice_HasAspect(device, aspect); };
  UsmCapabilities caps;
  caps.host = aspect_access(has(kAspectUsmHostAllocations), has(kAspectUsmAtomicHostAllocations));
  caps.device = aspect_access(has(kAspectUsmDeviceAllocations), std::nullopt);
  caps.single_device_shared =
      aspect_access(has(kAspectUsmSharedAllocations), has(kAspectUsmAtomicSharedAllocations));
  caps.cross_device_shared = UsmAccess{std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  caps.shared_system = aspect_access(has(kAspectUsmSystemAllocations), std::nullopt);
  if (!caps.host.allows_access() && !caps.device.allows_access() &&
      !caps.single_device_shared.allows_access()) {
    return std::nullopt;
  }
  return caps;
}

}  // namespace

std::string backend_name(int backend) {
  switch (backend) {
    case kBackendLevelZero:
      return "level_zero";
    case kBackendOpenCl:
      return "opencl";
    case kBackendCuda:
      return "cuda";
    case kBackendHip:
      return "hip";
    default:
      return "unknown";
  }
}

SyclTopology::SyclTopology(const DpctlApi& api, const DpctlLibrary& library) : api_(api) {
  inventory_.backend = "sycl";
  inventory_.ordering_model = "sycl-get-devices";
  (void)library;
  enumerate();
}

void SyclTopology::enumerate() {
  // SYCL reads ONEAPI_DEVICE_SELECTOR itself; the tool only names it. Set
  // but empty counts: SYCL then selects nothing.
  const char* selector = std::getenv("ONEAPI_DEVICE_SELECTOR");
  if (selector != nullptr) inventory_.selector = selector;

  const int everything = kAllBackends | kAllDeviceTypes;
  SyclDeviceVectorRef devices = api_.DPCTLDeviceMgr_GetDevices(everything);
  std::size_t count = devices == nullptr ? 0 : api_.DPCTLDeviceVector_Size(devices);
  for (std::size_t i = 0; i < count; ++i) {
    SyclDeviceRef device = api_.DPCTLDeviceVector_GetAt(devices, i);
    auto root_index = static_cast<std::int32_t>(i);
    // dpctl's __dlpack_device__ asks this very function; the two orders
    // agreeing is what makes the listed id the id a SYCL producer writes.
    int position = api_.DPCTLDeviceMgr_GetPositionInDevices(device, everything);
    if (position != root_index) {
      inventory_.warnings.push_back(
          fmt::format("SYCL lists a device at position {} but DPCTLDeviceMgr_GetPositionInDevices "
                      "says {}; the listed id is the position",
                      root_index, position));
    }
    std::int32_t platform_index = platform_index_of(device);
    std::string filter = fmt::format("{}:{}:{}", backend_name(api_.DPCTLDevice_GetBackend(device)),
                                     device_type_name(api_.DPCTLDevice_GetDeviceType(device)),
                                     api_.DPCTLDeviceMgr_GetRelativeId(device));
    DeviceInfo info = describe_device(device, filter, {root_index, std::nullopt});
    info.sycl_filter = filter;
    auto& platform_devices = inventory_.platforms[static_cast<std::size_t>(platform_index)].devices;
    SyclRoot root{device, platform_index, {}, platform_devices.size(), 0};
    plan_sub_devices(info, root);
    roots_.push_back(std::move(root));
    platform_devices.push_back(std::move(info));
  }
  // The vector's elements were handed out as copies; the vector goes.
  if (devices != nullptr) api_.DPCTLDeviceVector_Delete(devices);

  if (count == 0) {
    inventory_.problems.push_back(
        selector != nullptr
            ? fmt::format(
                  "SYCL lists no device under ONEAPI_DEVICE_SELECTOR='{}': its terms select none "
                  "of this machine's devices (the SYCL runtime of the PyPI wheels selects "
                  "nothing with a backend-named term such as opencl:* or with an empty value; "
                  "'*:cpu' or '*:0' select by type or position)",
                  selector)
            : "SYCL lists no device: no SYCL backend found a device on this machine (is an "
              "OpenCL or Level Zero driver installed?)");
  }
}

std::int32_t SyclTopology::platform_index_of(SyclDeviceRef device) {
  SyclPlatformRef platform = api_.DPCTLDevice_GetPlatform(device);
  for (std::size_t i = 0; i < platforms_.size(); ++i) {
    if (api_.DPCTLPlatform_AreEq(platforms_[i], platform)) {
      api_.DPCTLPlatform_Delete(platform);
      return static_cast<std::int32_t>(i);
    }
  }
  PlatformInfo info;
  info.index = static_cast<std::int32_t>(platforms_.size());
  info.name = take_string(api_, api_.DPCTLPlatform_GetName(platform));
  info.vendor = take_string(api_, api_.DPCTLPlatform_GetVendor(platform));
  info.version = take_string(api_, api_.DPCTLPlatform_GetVersion(platform));
  platforms_.push_back(platform);
  inventory_.platforms.push_back(std::move(info));
  return inventory_.platforms.back().index;
}

DeviceInfo SyclTopology::describe_device(SyclDeviceRef device, const std::string& selector_name,
                                         runtime::DeviceRef ref) {
  DeviceInfo info;
  info.ref = ref;
  info.selector_name = selector_name;
  info.backend = backend_name(api_.DPCTLDevice_GetBackend(device));
  info.type = device_type_name(api_.DPCTLDevice_GetDeviceType(device));
  info.name = take_string(api_, api_.DPCTLDevice_GetName(device));
  info.vendor = take_string(api_, api_.DPCTLDevice_GetVendor(device));
  info.driver_version = take_string(api_, api_.DPCTLDevice_GetDriverVersion(device));
  info.compute_units = api_.DPCTLDevice_GetMaxComputeUnits(device);
  info.usm = usm_capabilities(api_, device);
  return info;
}

void SyclTopology::plan_sub_devices(DeviceInfo& root_info, SyclRoot& root) {
  std::uint32_t max_sub_devices = api_.DPCTLDevice_GetPartitionMaxSubDevices(root.device);
  if (max_sub_devices < 2) return;
  root_info.partition_types.push_back("equally");
  // As on OpenCL: as many sub-devices as the device allows, one compute
  // unit each where it can. partition_equally takes units per sub-device.
  std::uint32_t count =
      std::max<std::uint32_t>(1, std::min(root_info.compute_units, max_sub_devices));
  root.units_each = std::max<std::uint32_t>(1, (root_info.compute_units + count - 1) / count);
  root_info.partition_used = "equally";
  root_info.counted_sub_devices = root_info.compute_units / root.units_each;
}

void SyclTopology::create_sub_devices(DeviceInfo& root_info, SyclRoot& root) {
  root_info.counted_sub_devices.reset();
  if (root.units_each == 0) return;
  SyclDeviceVectorRef subs = api_.DPCTLDevice_CreateSubDevicesEqually(root.device, root.units_each);
  if (subs == nullptr) {
    root_info.partition_error = fmt::format(
        "sycl::device::create_sub_devices<partition_equally>({}) failed", root.units_each);
    return;
  }
  std::size_t made = api_.DPCTLDeviceVector_Size(subs);
  for (std::size_t i = 0; i < made; ++i) {
    SyclDeviceRef sub = api_.DPCTLDeviceVector_GetAt(subs, i);
    runtime::DeviceRef ref{root_info.ref.root_index, static_cast<std::int32_t>(i)};
    DeviceInfo sub_info =
        describe_device(sub, fmt::format("{}.{}", root_info.selector_name, i), ref);
    root_info.sub_devices.push_back(std::move(sub_info));
    root.sub_devices.push_back(sub);
  }
  api_.DPCTLDeviceVector_Delete(subs);
}

void SyclTopology::make_sub_devices() const {
  std::call_once(sub_devices_made_, [this] {
    // The one place the enumeration is finished: the accessors are const
    // because callers see a finished topology, which this makes it.
    auto& self = const_cast<SyclTopology&>(*this);
    for (SyclRoot& root : self.roots_) {
      auto platform = static_cast<std::size_t>(root.platform_index);
      self.create_sub_devices(self.inventory_.platforms[platform].devices[root.position], root);
    }
  });
}

const Inventory& SyclTopology::inventory() const {
  make_sub_devices();
  return inventory_;
}

const std::vector<SyclRoot>& SyclTopology::roots() const {
  make_sub_devices();
  return roots_;
}

SyclDeviceRef SyclTopology::device_handle(const runtime::DeviceRef& ref) const {
  return handle_of(roots(), ref);
}

std::optional<runtime::DeviceRef> SyclTopology::find_ref(SyclDeviceRef device) const {
  make_sub_devices();
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    auto root_index = static_cast<std::int32_t>(r);
    if (api_.DPCTLDevice_AreEq(roots_[r].device, device))
      return runtime::DeviceRef{root_index, std::nullopt};
    const auto& subs = roots_[r].sub_devices;
    for (std::size_t s = 0; s < subs.size(); ++s) {
      if (api_.DPCTLDevice_AreEq(subs[s], device)) {
        return runtime::DeviceRef{root_index, static_cast<std::int32_t>(s)};
      }
    }
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::runtime::sycl
