#include "exchange/pattern.hpp"

#include <algorithm>
#include <cstring>

#include "exchange/address_order.hpp"

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

namespace {

// The allocation's bytes a window at a time, in address order: bytes placed
// go into the current window, which is written out (gaps left as the
// filler) once the next byte placed lies past it.
class WindowWriter {
 public:
  using Write = std::function<void(std::uint64_t, std::span<const std::byte>)>;
  WindowWriter(std::uint64_t total, std::uint64_t window, const Write& write)
      : total_(total), window_(window), write_(write) {
    buffer_.assign(static_cast<std::size_t>(std::min(window_, total_)), kGapFiller);
  }

  // `at` is at or past every offset placed before.
  void place(std::uint64_t at, const std::byte* bytes, std::uint64_t count) {
    while (count > 0) {
      while (at >= start_ + buffer_.size()) advance();
      std::uint64_t here = std::min(count, start_ + buffer_.size() - at);
      std::memcpy(buffer_.data() + (at - start_), bytes, static_cast<std::size_t>(here));
      at += here;
      bytes += here;
      count -= here;
    }
  }

  void finish() {
    while (start_ < total_) advance();
  }

 private:
  void advance() {
    write_(start_, buffer_);
    start_ += buffer_.size();
    buffer_.assign(static_cast<std::size_t>(std::min(window_, total_ - start_)), kGapFiller);
  }

  std::uint64_t total_;
  std::uint64_t window_;
  const Write& write_;
  std::uint64_t start_ = 0;
  std::vector<std::byte> buffer_;
};

}  // namespace

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

void write_pattern_windows(
    const Layout& layout, std::uint64_t element_bytes, std::uint64_t window_bytes,
    const std::function<void(std::uint64_t offset, std::span<const std::byte> bytes)>& write) {
  WindowWriter windows(layout.allocation_bytes, std::max<std::uint64_t>(window_bytes, 1), write);
  std::vector<std::byte> element(element_bytes);
  bool nested = walk_in_address_order(
      layout.shape, layout.strides, element_bytes, [&](std::uint64_t index, std::int64_t position) {
        pattern_element(index, element_bytes, element.data());
        windows.place(layout.byte_offset + static_cast<std::uint64_t>(position), element.data(),
                      element_bytes);
      });
  if (nested) {
    windows.finish();
    return;
  }
  std::vector<std::byte> image = pattern_image(layout, element_bytes);
  if (!image.empty()) write(0, image);
}

}  // namespace dlpack_usm::exchange
