// Small questions several rule families ask of a tensor, answered once so
// that the families agree (and one defect is reported by one of them).
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {

const std::vector<std::int64_t>* readable_shape(const facts::TensorFacts& tensor) {
  static const std::vector<std::int64_t> scalar;
  if (!tensor.body_read || tensor.ndim < 0 || tensor.ndim > facts::kMaxReadableDims) {
    return nullptr;
  }
  if (tensor.ndim == 0) return &scalar;
  if (!tensor.shape || static_cast<std::int64_t>(tensor.shape->size()) != tensor.ndim) {
    return nullptr;
  }
  return &*tensor.shape;
}

bool byte_offset_misaligned(const RuleContext& context) {
  const dl::DLDataType dtype = context.tensor.dtype;
  // Sub-byte and odd widths have no whole-byte element to align to.
  if (dtype.bits < 8 || dtype.lanes == 0 || (dtype.bits * dtype.lanes) % 8 != 0) return false;
  return context.tensor.byte_offset % context.derived.element_bytes != 0;
}

bool data_is_handle(const facts::TensorFacts& tensor) {
  const dl::DeviceTypeName* device = dl::find_device_type(tensor.device_type);
  return device != nullptr && device->opaque_data;
}

bool known_empty(const RuleContext& context) {
  return context.derived.element_count && *context.derived.element_count == 0;
}

}  // namespace dlpack_usm::rules
