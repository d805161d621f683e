#include "exchange/pattern.hpp"

#include <cstring>

namespace dlpack_usm::exchange {
namespace {

// SplitMix64: cheap, and every output word differs for neighbouring inputs.
std::uint64_t mix(std::uint64_t value) {
  value += 0x9E3779B97F4A7C15ULL;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

}  // namespace

void pattern_element(std::uint64_t index, std::uint64_t element_bytes, std::byte* out) {
  for (std::uint64_t filled = 0; filled < element_bytes; filled += 8) {
    std::uint64_t word = mix(index * 4 + filled / 8);
    std::memcpy(out + filled, &word, std::min<std::uint64_t>(8, element_bytes - filled));
  }
}

std::vector<std::byte> pattern_image(const Layout& layout, std::uint64_t element_bytes) {
  std::vector<std::byte> image(layout.allocation_bytes, kGapFiller);
  std::uint64_t count = 1;
  for (std::int64_t extent : layout.shape) count *= static_cast<std::uint64_t>(extent);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t at = static_cast<std::int64_t>(layout.byte_offset) +
                      element_byte_position(i, layout.shape, layout.strides, element_bytes);
    pattern_element(i, element_bytes, image.data() + at);
  }
  return image;
}

}  // namespace dlpack_usm::exchange
