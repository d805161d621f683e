#include "matrix/live_matrix.hpp"

#include "runtime/runtime.hpp"

namespace dlpack_usm::suite {

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

dl::Release live_version(const std::string& version) {
  if (version == "0.8") return dl::Release{0, 8};
  if (version == "1.0") return dl::Release{1, 0};
  return dl::kModelRelease;
}

}  // namespace dlpack_usm::suite
