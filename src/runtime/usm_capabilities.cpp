#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {

bool usm_kind_supported(const UsmCapabilities& caps, facts::UsmKind kind) {
  switch (kind) {
    case facts::UsmKind::host:
      return caps.host.allows_access();
    case facts::UsmKind::device:
      return caps.device.allows_access();
    case facts::UsmKind::shared:
      return caps.single_device_shared.allows_access();
    case facts::UsmKind::unknown:
      break;
  }
  return false;
}

}  // namespace dlpack_usm::runtime
