// From a DeviceRef to the native handle a runtime keeps for it. Both runtimes
// keep, per root index, a root handle and the handles of its sub-devices.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/device_model.hpp"

namespace dlpack_usm::runtime {

// `Root` has `device` and `sub_devices` (a vector of the same handle type).
// A null handle for a ref no root or sub-device answers to.
template <typename Root>
auto handle_of(const std::vector<Root>& roots, const DeviceRef& ref) -> decltype(Root::device) {
  if (ref.root_index < 0 || static_cast<std::size_t>(ref.root_index) >= roots.size()) {
    return nullptr;
  }
  const Root& root = roots[static_cast<std::size_t>(ref.root_index)];
  if (!ref.sub_index) return root.device;
  if (*ref.sub_index < 0 || static_cast<std::size_t>(*ref.sub_index) >= root.sub_devices.size()) {
    return nullptr;
  }
  return root.sub_devices[static_cast<std::size_t>(*ref.sub_index)];
}

}  // namespace dlpack_usm::runtime
