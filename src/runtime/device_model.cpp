#include "runtime/device_model.hpp"

namespace dlpack_usm::runtime {

std::vector<RootDevice> Inventory::roots() const {
  std::vector<RootDevice> roots;
  for (const PlatformInfo& platform : platforms) {
    for (const DeviceInfo& device : platform.devices) roots.push_back({platform, device});
  }
  return roots;
}

std::vector<std::string> Inventory::device_names() const {
  std::vector<std::string> names;
  for (const auto& [platform, root] : roots()) {
    names.push_back(root.selector_name);
    for (const DeviceInfo& sub : root.sub_devices) names.push_back(sub.selector_name);
  }
  return names;
}

std::int32_t Inventory::root_device_count() const {
  std::size_t count = 0;
  for (const PlatformInfo& platform : platforms) count += platform.devices.size();
  return static_cast<std::int32_t>(count);
}

const PlatformInfo* Inventory::platform_of(const DeviceRef& ref) const {
  for (const auto& [platform, root] : roots()) {
    if (root.ref.root_index == ref.root_index) return &platform;
  }
  return nullptr;
}

const DeviceInfo* Inventory::find(const DeviceRef& ref) const {
  for (const auto& [platform, root] : roots()) {
    if (root.ref.root_index != ref.root_index) continue;
    if (!ref.sub_index) return &root;
    for (const DeviceInfo& sub : root.sub_devices) {
      if (sub.ref == ref) return &sub;
    }
    return nullptr;
  }
  return nullptr;
}

const DeviceInfo* Inventory::find(const std::string& selector_name) const {
  for (const auto& [platform, root] : roots()) {
    if (root.selector_name == selector_name) return &root;
    for (const DeviceInfo& sub : root.sub_devices) {
      if (sub.selector_name == selector_name) return &sub;
    }
  }
  return nullptr;
}

}  // namespace dlpack_usm::runtime
