#include "exchange/address_order.hpp"

#include <algorithm>
#include <optional>

namespace dlpack_usm::exchange {
namespace {

struct Axis {
  std::int64_t extent = 0;
  std::int64_t stride = 0;  // in elements
  std::int64_t weight = 0;  // of a step along it in the row-major index
};

std::int64_t magnitude(std::int64_t stride) {
  return stride < 0 ? -stride : stride;
}

// The axes with more than one element, innermost (smallest |stride|) first;
// nullopt where one does not step over the whole extent of the one inside
// it (the tensor overlaps itself, or its axes interleave).
std::optional<std::vector<Axis>> nested_axes(const std::vector<std::int64_t>& shape,
                                             const std::vector<std::int64_t>& strides) {
  std::vector<Axis> axes;
  std::int64_t weight = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 1) axes.push_back({shape[k], strides[k], weight});
    weight *= shape[k];
  }
  std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) {
    return magnitude(a.stride) < magnitude(b.stride);
  });
  std::int64_t spanned = 1;  // elements the axes inside step over
  for (const Axis& axis : axes) {
    if (magnitude(axis.stride) < spanned) return std::nullopt;
    if (__builtin_mul_overflow(magnitude(axis.stride), axis.extent, &spanned)) return std::nullopt;
  }
  return axes;
}

}  // namespace

bool walk_in_address_order(
    const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
    std::uint64_t element_bytes,
    const std::function<void(std::uint64_t index, std::int64_t position)>& visit) {
  if (std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent == 0; })) {
    return true;
  }
  std::optional<std::vector<Axis>> axes = nested_axes(shape, strides);
  if (!axes) return false;
  // Each axis starts at its lowest address: its last index for a negative
  // stride, and walks upwards from there.
  std::int64_t position = 0;
  std::int64_t index = 0;
  for (const Axis& axis : *axes) {
    if (axis.stride < 0) {
      position += (axis.extent - 1) * axis.stride;
      index += (axis.extent - 1) * axis.weight;
    }
  }
  std::vector<std::int64_t> taken(axes->size(), 0);
  auto bytes = static_cast<std::int64_t>(element_bytes);
  while (true) {
    visit(static_cast<std::uint64_t>(index), position * bytes);
    std::size_t k = 0;
    for (; k < axes->size(); ++k) {
      const Axis& axis = (*axes)[k];
      std::int64_t direction = axis.stride < 0 ? -1 : 1;
      if (++taken[k] < axis.extent) {
        position += magnitude(axis.stride);
        index += direction * axis.weight;
        break;
      }
      // Back to this axis's lowest address; the next axis out takes a step.
      taken[k] = 0;
      position -= (axis.extent - 1) * magnitude(axis.stride);
      index -= direction * (axis.extent - 1) * axis.weight;
    }
    if (k == axes->size()) return true;
  }
}

}  // namespace dlpack_usm::exchange
