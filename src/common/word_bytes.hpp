// Eight bytes of text tested at once (SWAR, "SIMD within a register"): the
// line scanner, the JSON stream printer and the text escaper each look at
// millions of short strings, where a test a byte costs more than the rest
// of their work. Each test is nonzero when some byte of the word matches;
// its lowest set bit marks the first such byte exactly (bits above it may
// be set by a borrow or a carry, so only the lowest one is to be read).
#pragma once

#include <cstdint>
#include <cstring>

namespace dlpack_usm::word_bytes {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHigh = 0x8080808080808080ULL;

inline std::uint64_t load(const char* at) {
  std::uint64_t word;
  std::memcpy(&word, at, sizeof word);
  return word;
}

// Some byte is `byte`.
constexpr std::uint64_t has_byte(std::uint64_t word, unsigned char byte) {
  std::uint64_t diff = word ^ (kOnes * byte);
  return (diff - kOnes) & ~diff & kHigh;
}

// Some byte is a control byte (below 0x20).
constexpr std::uint64_t has_control(std::uint64_t word) {
  return (word - kOnes * 0x20) & ~word & kHigh;
}

// Some byte is 0x7F (DEL) or past ASCII.
constexpr std::uint64_t has_del_or_high(std::uint64_t word) {
  return ((word + kOnes) | word) & kHigh;
}

// Some byte cannot stand in a JSON string as it is, or is past printable
// ASCII: a control byte, DEL and up, a quote or a backslash.
constexpr std::uint64_t json_stop_bytes(std::uint64_t word) {
  return has_control(word) | has_del_or_high(word) | has_byte(word, '"') | has_byte(word, '\\');
}

}  // namespace dlpack_usm::word_bytes
