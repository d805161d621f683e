#include "facts/element_size.hpp"

#include <algorithm>

namespace dlpack_usm::facts {

std::uint64_t element_storage_bytes(dlpack::DLDataType dtype) {
  return (static_cast<std::uint64_t>(dtype.bits) * dtype.lanes + 7) / 8;
}

std::optional<std::uint64_t> checked_element_count(std::span<const std::int64_t> shape) {
  if (std::any_of(shape.begin(), shape.end(), [](std::int64_t n) { return n < 0; })) {
    return std::nullopt;
  }
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::uint64_t count = 1;
  for (std::int64_t extent : shape) {
    if (__builtin_mul_overflow(count, static_cast<std::uint64_t>(extent), &count)) {
      return std::nullopt;
    }
  }
  return count;
}

}  // namespace dlpack_usm::facts
