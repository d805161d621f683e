// Small questions several rule families ask of a tensor, answered once so
// that the families agree (and one defect is reported by one of them).
#include <fmt/format.h>

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
  return dl::data_is_handle(tensor.device_type);
}

bool known_by_release(dl::Generation since, dl::Release release) {
  return dl::declared_by(since) <= release;
}

std::string newer_than_declared(std::string_view name, int value, dl::Generation since,
                                dl::Release release) {
  const dl::GenerationInfo& first = dl::generation_info(since);
  const std::string declares = dl::to_string(first.declares);
  return fmt::format(
      "{} ({}) is defined from dlpack.h {} on, but the tensor declares {}; "
      "declare version {} or later",
      name, value, first.name, dl::to_string(release), declares);
}

std::string known_by_no_generation(std::string_view field, int value, std::string_view type_name) {
  const auto generations = dl::generation_table();
  return fmt::format(
      "{} {} is not a {} of any dlpack.h the tool knows ({} to {}); use one of "
      "the kDL* values",
      field, value, type_name, generations.front().name, generations.back().name);
}

std::string known_only_by_main(std::string_view name, int value) {
  return fmt::format(
      "{} ({}) is defined only by dlpack.h on main after {}, which no release "
      "carries yet: a consumer built against a released header does not know it "
      "and may refuse the tensor",
      name, value, dl::to_string(dl::kModelRelease));
}

std::optional<std::int64_t> unsigned_division_stride(std::int64_t stride,
                                                     std::uint64_t element_bytes) {
  // With 1-byte elements the division is exact and the stride stays right.
  if (stride <= 0 || element_bytes < 2) return std::nullopt;
  // Multiplying back wraps to the negative byte stride the producer had,
  // give or take the remainder the division dropped.
  const auto bytes = static_cast<std::int64_t>(static_cast<std::uint64_t>(stride) * element_bytes);
  // A real byte stride is far below 2^40 bytes (a terabyte) in magnitude.
  constexpr std::int64_t kLargestPlausibleByteStride = std::int64_t{1} << 40;
  if (bytes >= 0 || bytes < -kLargestPlausibleByteStride) return std::nullopt;
  return bytes / static_cast<std::int64_t>(element_bytes);
}

bool known_empty(const RuleContext& context) {
  return context.derived.element_count && *context.derived.element_count == 0;
}

void judged_by_plugin_cases(const RuleContext&, Reporter&) {}

}  // namespace dlpack_usm::rules
