#include "common/printable.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dlpack_usm {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[i], or 0.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  std::size_t length = lead >= 0xF0 && lead <= 0xF4   ? 4
                       : lead >= 0xE0 && lead <= 0xEF ? 3
                       : lead >= 0xC2 && lead <= 0xDF ? 2
                                                      : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms, surrogates and code points past U+10FFFF.
  unsigned char second = byte(i + 1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
    return 0;
  }
  return length;
}

// Whether `c` goes out as it is: printable ASCII, quotes and backslashes
// aside inside quotes.
bool plain_byte(unsigned char c, bool quoted) {
  return c >= 0x20 && c < 0x7F && !(quoted && (c == '"' || c == '\\'));
}

void escape_bytes_into(std::string& out, std::string_view text, std::size_t max_bytes,
                       bool quoted) {
  if (quoted) out += '"';
  std::size_t end = std::min(text.size(), max_bytes);
  std::size_t i = 0;
  while (i < end) {
    // A run of plain bytes at once: most text is nothing but that.
    std::size_t run = i;
    while (run < end && plain_byte(static_cast<unsigned char>(text[run]), quoted)) ++run;
    out.append(text.substr(i, run - i));
    i = run;
    if (i == end) break;
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      std::size_t length = utf8_sequence_length(text, i);
      if (length > 0) {
        out.append(text.substr(i, length));
        i += length;
        continue;
      }
    }
    if (c < 0x20 || c == 0x7F || c >= 0x80) {
      out += fmt::format("\\x{:02X}", c);
    } else {
      out += '\\';
      out += static_cast<char>(c);
    }
    ++i;
  }
  if (quoted) out += '"';
  if (i < text.size()) out += fmt::format(" (cut; {} bytes in all)", text.size());
}

std::string escape_bytes(std::string_view text, std::size_t max_bytes, bool quoted) {
  std::string out;
  escape_bytes_into(out, text, max_bytes, quoted);
  return out;
}

}  // namespace

std::string quote_for_message(std::string_view text, std::size_t max_bytes) {
  return escape_bytes(text, max_bytes, true);
}

std::string printable(std::string_view text) {
  return escape_bytes(text, text.size(), false);
}

void append_printable(std::string& out, std::string_view text) {
  escape_bytes_into(out, text, text.size(), false);
}

}  // namespace dlpack_usm
