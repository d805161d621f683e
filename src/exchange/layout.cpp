#include "exchange/layout.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "facts/element_size.hpp"

namespace dlpack_usm::exchange {
namespace {

std::uint64_t checked_multiply(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > static_cast<std::uint64_t>(INT64_MAX)) {
    fail_usage(fmt::format("the tensor is too large: {} x {} bytes overflows", a, b),
               "use a smaller --shape");
  }
  return product;
}

std::uint64_t element_count(const std::vector<std::int64_t>& shape) {
  std::optional<std::uint64_t> count = facts::checked_element_count(shape);
  if (!count || *count > static_cast<std::uint64_t>(INT64_MAX)) {
    fail_usage("the tensor is too large: the product of the shape overflows",
               "use a smaller --shape");
  }
  return *count;
}

// Compact strides, walking the axes from the last (C) or the first (F).
std::vector<std::int64_t> compact_strides(const std::vector<std::int64_t>& shape, bool c_order) {
  std::vector<std::int64_t> strides(shape.size());
  std::uint64_t running = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    std::size_t axis = c_order ? shape.size() - 1 - k : k;
    strides[axis] = static_cast<std::int64_t>(running);
    // Extent 0 still gets a distinct stride: the rules allow any value there,
    // and a real producer computes it this way.
    running = checked_multiply(running,
                               static_cast<std::uint64_t>(std::max<std::int64_t>(shape[axis], 1)));
  }
  return strides;
}

}  // namespace

const char* to_string(Order order) {
  switch (order) {
    case Order::c:
      return "C";
    case Order::f:
      return "F";
    case Order::strided:
      return "strided";
    case Order::offset:
      return "offset";
    case Order::negative:
      return "negative";
  }
  return "C";
}

std::optional<Order> parse_order(std::string_view text) {
  for (Order order : {Order::c, Order::f, Order::strided, Order::offset, Order::negative}) {
    std::string_view name = to_string(order);
    if (text == name) return order;
    // "c" and "f" as well as "C" and "F".
    if (name.size() == 1 && text.size() == 1 && (text[0] | 0x20) == (name[0] | 0x20)) return order;
  }
  return std::nullopt;
}

Layout make_layout(const std::vector<std::int64_t>& shape, std::uint64_t element_bytes,
                   Order order) {
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0) {
      fail_usage(fmt::format("extent {} of axis {} is negative", shape[k], k),
                 "every extent of --shape must be 0 or more");
    }
  }
  Layout layout;
  layout.shape = shape;
  std::uint64_t count = element_count(shape);
  std::uint64_t bytes = checked_multiply(count, element_bytes);
  switch (order) {
    case Order::c:
    case Order::f:
      layout.strides = compact_strides(shape, order == Order::c);
      layout.allocation_bytes = bytes;
      break;
    case Order::strided: {
      // The view is every other column of a buffer twice as wide.
      std::vector<std::int64_t> parent = shape;
      if (!parent.empty())
        parent.back() = static_cast<std::int64_t>(
            checked_multiply(static_cast<std::uint64_t>(parent.back()), 2));
      layout.strides = compact_strides(parent, true);
      if (!layout.strides.empty()) layout.strides.back() *= 2;
      layout.allocation_bytes =
          count == 0 ? 0 : checked_multiply(element_count(parent), element_bytes);
      break;
    }
    case Order::offset:
      layout.strides = compact_strides(shape, true);
      layout.byte_offset = checked_multiply(3, element_bytes);
      layout.allocation_bytes = bytes + layout.byte_offset;
      break;
    case Order::negative:
      layout.strides = compact_strides(shape, true);
      if (!shape.empty() && count > 0) {
        // Element [0, ...] sits at the start of the last row of the buffer.
        layout.byte_offset =
            checked_multiply(checked_multiply(static_cast<std::uint64_t>(shape[0] - 1),
                                              static_cast<std::uint64_t>(layout.strides[0])),
                             element_bytes);
        layout.strides[0] = -layout.strides[0];
      }
      layout.allocation_bytes = bytes;
      break;
  }
  return layout;
}

std::int64_t element_byte_position(std::uint64_t index, const std::vector<std::int64_t>& shape,
                                   const std::vector<std::int64_t>& strides,
                                   std::uint64_t element_bytes) {
  std::int64_t position = 0;
  for (std::size_t k = shape.size(); k-- > 0;) {
    auto extent = static_cast<std::uint64_t>(shape[k]);
    position += static_cast<std::int64_t>(index % extent) * strides[k];
    index /= extent;
  }
  return position * static_cast<std::int64_t>(element_bytes);
}

}  // namespace dlpack_usm::exchange
