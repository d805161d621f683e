#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

const char* to_string(UsmKind kind) {
  switch (kind) {
    case UsmKind::host:
      return "host";
    case UsmKind::device:
      return "device";
    case UsmKind::shared:
      return "shared";
    case UsmKind::unknown:
      break;
  }
  return "unknown";
}

std::optional<UsmKind> parse_usm_kind(const std::string& text) {
  for (UsmKind kind : {UsmKind::unknown, UsmKind::host, UsmKind::device, UsmKind::shared}) {
    if (text == to_string(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::facts
