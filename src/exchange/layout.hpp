// Memory layouts a producer can give a tensor over one USM allocation: the
// compact C and F orders and the views real producers hand out (every other
// element, an offset into a larger buffer, a flipped axis). The round trip
// and the benchmark build their tensors from these, so the consumer has to
// honour strides, byte_offset and negative strides to read the data back.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dlpack_usm::exchange {

enum class Order {
  c,         // row-major, compact
  f,         // column-major, compact
  strided,   // row-major over a buffer twice as wide: every other element of the last axis
  offset,    // row-major, starting three elements into the allocation (byte_offset)
  negative,  // row-major with the first axis flipped: a negative stride and a byte_offset
};

const char* to_string(Order order);
std::optional<Order> parse_order(std::string_view text);  // "C", "F", "strided", ...

struct Layout {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // in elements, as DLPack counts them
  std::uint64_t byte_offset = 0;
  // Bytes the allocation needs so that every element lies inside it.
  std::uint64_t allocation_bytes = 0;
};

// Throws Error(usage) for a negative extent or a layout whose size overflows.
Layout make_layout(const std::vector<std::int64_t>& shape, std::uint64_t element_bytes,
                   Order order);

// Byte position of the element at row-major position `index`, relative to
// data + byte_offset. `index` must be below the element count.
std::int64_t element_byte_position(std::uint64_t index, const std::vector<std::int64_t>& shape,
                                   const std::vector<std::int64_t>& strides,
                                   std::uint64_t element_bytes);

}  // namespace dlpack_usm::exchange
