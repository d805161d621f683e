// The known pattern a producer writes and a consumer checks: element i (in
// logical, row-major order) holds bytes derived from i alone, so an element
// read from the wrong place, or twice, shows up. Bytes, not numbers: the
// comparison must not depend on NaN or signed-zero semantics of any dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "exchange/layout.hpp"

namespace dlpack_usm::exchange {

// The bytes element `index` holds, `element_bytes` of them.
void pattern_element(std::uint64_t index, std::uint64_t element_bytes, std::byte* out);

// The host image of a whole allocation laid out as `layout`: every element at
// its strided position, and a filler byte in the gaps between them.
std::vector<std::byte> pattern_image(const Layout& layout, std::uint64_t element_bytes);

// The same image handed to `write(offset, bytes)` a window of at most
// `window_bytes` at a time, in address order, so that no more than one
// window is ever held (a 1 GiB tensor costs a window, not 1 GiB of host
// memory beside it). A layout whose axes do not nest (address_order.hpp)
// goes as one window, the whole image.
void write_pattern_windows(
    const Layout& layout, std::uint64_t element_bytes, std::uint64_t window_bytes,
    const std::function<void(std::uint64_t offset, std::span<const std::byte> bytes)>& write);

inline constexpr std::byte kGapFiller{0xA5};

// The host staging a round trip holds beside a tensor's USM, going to the
// device (the pattern) or coming back (the elements read): 1 MiB. Issue
// 38's bound is 1.1x the buffer at peak; 16 MiB windows were 1.5% of a
// 1 GiB exchange, most of what the tool adds to the runtime's own memory,
// while the thousand copies of 1 MiB cost a few milliseconds against the
// copy of 1 GiB itself (about 185 ms).
inline constexpr std::uint64_t kStagingWindowBytes = std::uint64_t{1} << 20;

}  // namespace dlpack_usm::exchange
