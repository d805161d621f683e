// The byte-level half of the line reader: a cursor over one JSON line that
// reads exactly the JSON a capture writes (objects, arrays, integers, plain
// ASCII strings, true, false, null) and throws LineDeclined at anything
// else, which then goes to the reference reader. It is made for capsule
// lines, not for JSON at large: no escapes, no fractions or exponents, no
// byte outside printable ASCII inside a string. Every byte of the line is
// looked at once, which is as much validation as a general parser's first
// stage gives, at a third of simdjson On-Demand's cost on these lines
// (measured by bench/capsule_check_bench: see the README).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "common/word_bytes.hpp"

namespace dlpack_usm::capsule {

// Whatever the scanner or the reader leaves to the reference reader. Thrown
// from deep in a line and caught in TensorLineReader::read(), never further:
// declines are rare (a malformed or unusual line), and unwinding keeps every
// reading step one line long.
struct LineDeclined {};

class LineScanner {
 public:
  explicit LineScanner(std::string_view line) : at_(line.data()), end_(at_ + line.size()) {}

  // The next byte past whitespace, not consumed; '\0' at the end.
  char peek() {
    skip_space();
    return at_ < end_ ? *at_ : '\0';
  }
  // Consumes `c`, which must come next (past whitespace).
  void expect(char c) {
    if (peek() != c) throw LineDeclined{};
    ++at_;
  }
  // Consumes `c` if it comes next.
  bool accept(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  bool at_end() { return peek() == '\0' && at_ == end_; }
  // At the line's last byte's end, nothing skipped.
  bool at_line_end() const { return at_ == end_; }
  const char* position() const { return at_; }

  // Consumes `bytes`, which must come next exactly (no space skipped).
  // Eight bytes at a time, inline: the literals of a line's shape are a
  // dozen bytes each, thirty a line, where a call to memcmp costs more than
  // the comparison. Reads up to seven bytes past `bytes`, which the caller
  // keeps readable (LineShape pads its literals), and past the line's end
  // only within its padding.
  bool match(std::string_view bytes) {
    std::size_t size = bytes.size();
    if (static_cast<std::size_t>(end_ - at_) < size) return false;
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      if (word_at(at_ + i) != word_at(bytes.data() + i)) return false;
    }
    if (i < size) {
      std::uint64_t mask = ~std::uint64_t{0} >> (64 - 8 * (size - i));
      if (((word_at(at_ + i) ^ word_at(bytes.data() + i)) & mask) != 0) return false;
    }
    at_ += size;
    return true;
  }

  // Object and array walking: begin_object() then, for each member,
  // next_member(first) and key(); the same with next_entry() for arrays.
  // Both return false at the closing bracket.
  void begin_object() { expect('{'); }
  bool next_member(bool first) { return next_item('}', first); }
  void begin_array() { expect('['); }
  bool next_entry(bool first) { return next_item(']', first); }
  std::string_view key() {
    std::string_view name = string();
    expect(':');
    return name;
  }

  // A string of printable ASCII without escapes: its bytes between quotes.
  // Eight bytes at a time: the line is followed by kLinePadding readable
  // bytes (capsule_file.hpp).
  std::string_view string() {
    expect('"');
    const char* begin = at_;
    std::uint64_t stop = 0;
    while (true) {
      // Past the line's end only by the seven bytes of one load.
      if (at_ >= end_) throw LineDeclined{};
      std::uint64_t word;
      std::memcpy(&word, at_, sizeof word);
      stop = stop_bytes(word);
      if (stop != 0) break;
      at_ += sizeof word;
    }
    at_ += static_cast<std::size_t>(__builtin_ctzll(stop)) / 8;
    if (at_ >= end_ || *at_ != '"') throw LineDeclined{};
    return {begin, static_cast<std::size_t>(at_++ - begin)};
  }
  // An integer within T's range. "-0", leading zeros, fractions and
  // exponents are declined: the reference reader words or reads those.
  template <typename T>
  T integer() {
    bool negative = accept('-');
    std::uint64_t magnitude = digits();
    if (negative) {
      if constexpr (std::numeric_limits<T>::is_signed) {
        constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + 1;
        if (magnitude == 0 || magnitude > most) throw LineDeclined{};
        return static_cast<T>(-static_cast<std::int64_t>(magnitude - 1) - 1);
      }
      throw LineDeclined{};
    }
    if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      throw LineDeclined{};
    }
    return static_cast<T>(magnitude);
  }

  bool boolean() {
    if (literal("true")) return true;
    if (literal("false")) return false;
    throw LineDeclined{};
  }
  // Consumes a null; false (consuming nothing) for any other value.
  bool null() { return literal("null"); }

 private:
  void skip_space() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\r' || *at_ == '\n')) ++at_;
  }

  bool next_item(char close, bool first) {
    if (first && accept(close)) return false;
    if (!first) {
      if (accept(close)) return false;
      expect(',');
    }
    return true;
  }

  static std::uint64_t word_at(const char* at) {
    std::uint64_t word;
    std::memcpy(&word, at, sizeof word);
    return word;
  }

  std::uint64_t digits();
  bool literal(std::string_view word);
  static std::uint64_t stop_bytes(std::uint64_t word);

  const char* at_;
  const char* end_;
};

// The digits of a JSON integer: no leading zero, nothing of a fraction or
// exponent after them, within 64 bits.
inline std::uint64_t LineScanner::digits() {
  const char* begin = at_;
  std::uint64_t value = 0;
  // Nineteen digits cannot overflow 64 bits: only the twentieth is checked.
  constexpr std::size_t kSafeDigits = 19;
  while (at_ < end_ && *at_ >= '0' && *at_ <= '9') {
    auto digit = static_cast<std::uint64_t>(*at_ - '0');
    if (static_cast<std::size_t>(at_ - begin) >= kSafeDigits &&
        value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      throw LineDeclined{};
    }
    value = value * 10 + digit;
    ++at_;
  }
  std::size_t count = static_cast<std::size_t>(at_ - begin);
  bool bad_end = at_ < end_ && (*at_ == '.' || *at_ == 'e' || *at_ == 'E');
  if (count == 0 || (count > 1 && *begin == '0') || bad_end) throw LineDeclined{};
  return value;
}

// The high bit of each byte of `word` (little-endian) that ends a plain
// string: a quote, a backslash, a control byte or one past ASCII's
// printable range. The lowest set bit is exact, which is the one used.
inline std::uint64_t LineScanner::stop_bytes(std::uint64_t word) {
  return word_bytes::json_stop_bytes(word);
}

inline bool LineScanner::literal(std::string_view word) {
  skip_space();
  if (static_cast<std::size_t>(end_ - at_) < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (at_[i] != word[i]) return false;
  }
  const char* after = at_ + word.size();
  if (after < end_ && ((*after >= 'a' && *after <= 'z') || (*after >= '0' && *after <= '9'))) {
    throw LineDeclined{};
  }
  at_ = after;
  return true;
}

}  // namespace dlpack_usm::capsule
