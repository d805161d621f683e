#include "matrix/live_matrix.hpp"

#include "runtime/runtime.hpp"

namespace dlpack_usm::matrix {

bool kind_supported(const runtime::DeviceInfo& device, facts::UsmKind kind) {
  return device.usm && runtime::usm_kind_supported(*device.usm, kind);
}

std::vector<std::int64_t> live_shape(const std::string& layout) {
  if (layout == "size0") return {0, 5};
  if (layout == "ndim0") return {};
  return {3, 5};
}

exchange::Order live_order(const std::string& layout) {
  if (layout == "size0" || layout == "ndim0") return exchange::Order::c;
  return exchange::parse_order(layout).value_or(exchange::Order::c);
}

dlpack::Release live_version(const std::string& version) {
  if (version == "0.8") return dlpack::Release{0, 8};
  if (version == "1.0") return dlpack::Release{1, 0};
  return dlpack::kModelRelease;
}

namespace {

void walk_device(const runtime::DeviceInfo& device, bool sub_device,
                 std::span<const char* const> read_only_versions, LiveMatrixVisitor& visitor) {
  visitor.device_begins(device, sub_device);
  if (!device.usm) {
    visitor.no_usm(device);
    return;
  }
  for (facts::UsmKind kind : kLiveKinds) {
    if (!kind_supported(device, kind)) {
      visitor.kind_unsupported(device, kind);
      continue;
    }
    if (!visitor.kind_begins(device, kind)) continue;
    if (sub_device) {
      visitor.tensor(device, {kind, "float32", "C", "1.3", false});
      continue;
    }
    for (const char* dtype : kLiveDtypes) {
      for (const char* layout : kLiveLayouts) {
        for (const char* version : kLiveVersions) {
          visitor.tensor(device, {kind, dtype, layout, version, false});
        }
      }
      for (const char* version : read_only_versions) {
        visitor.tensor(device, {kind, dtype, "C", version, true});
      }
    }
    visitor.full_kind_done(device, kind);
  }
}

}  // namespace

void walk_live_matrix(const runtime::Inventory& inventory,
                      std::span<const char* const> read_only_versions, LiveMatrixVisitor& visitor) {
  for (const runtime::PlatformInfo& platform : inventory.platforms) {
    for (const runtime::DeviceInfo& root : platform.devices) {
      walk_device(root, false, read_only_versions, visitor);
      for (const runtime::DeviceInfo& sub : root.sub_devices) {
        walk_device(sub, true, read_only_versions, visitor);
      }
      visitor.root_done(root);
    }
  }
}

}  // namespace dlpack_usm::matrix
