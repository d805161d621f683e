#include "common/printable.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "common/utf8.hpp"
#include "common/word_bytes.hpp"

namespace dlpack_usm {
namespace {

// Whether `c` goes out as it is: printable ASCII, quotes and backslashes
// aside inside quotes. '#' is looked at on its own ("##[").
constexpr bool plain_byte(unsigned char c, bool quoted) {
  return c >= 0x20 && c < 0x7F && c != '#' && !(quoted && (c == '"' || c == '\\'));
}

// plain_byte for every byte, looked up: a capture's millions of origins are
// escaped, and one load a byte costs a third of the comparisons.
struct PlainBytes {
  std::array<bool, 256> bare{};
  std::array<bool, 256> quoted{};
  constexpr PlainBytes() {
    for (unsigned c = 0; c < 256; ++c) {
      bare[c] = plain_byte(static_cast<unsigned char>(c), false);
      quoted[c] = plain_byte(static_cast<unsigned char>(c), true);
    }
  }
};
constexpr PlainBytes kPlainBytes;

// Whether all eight bytes of `word` are plain (plain_byte), tested at once:
// no byte below 0x20, none of 0x7F and up, no '#', and inside quotes no
// quote or backslash. It may say no for a plain word (the bytes are then
// looked at one by one), never yes for one that is not.
bool plain_word(std::uint64_t word, bool quoted) {
  using namespace word_bytes;
  std::uint64_t stop = has_control(word) | has_del_or_high(word) | has_byte(word, '#');
  if (quoted) stop |= has_byte(word, '"') | has_byte(word, '\\');
  return stop == 0;
}

// The end of the run of plain bytes from `i`: eight at a time while they
// last, then byte by byte.
std::size_t plain_run_end(std::string_view text, std::size_t i, std::size_t end, bool quoted) {
  for (; i + sizeof(std::uint64_t) <= end; i += sizeof(std::uint64_t)) {
    if (!plain_word(word_bytes::load(text.data() + i), quoted)) break;
  }
  const std::array<bool, 256>& plain = quoted ? kPlainBytes.quoted : kPlainBytes.bare;
  while (i < end && plain[static_cast<unsigned char>(text[i])]) ++i;
  return i;
}

void escape_bytes_into(std::string& out, std::string_view text, std::size_t max_bytes,
                       bool quoted) {
  if (quoted) out += '"';
  std::size_t end = std::min(text.size(), max_bytes);
  std::size_t i = 0;
  // GitHub's runner takes a log line starting with "::" as a workflow
  // command, and the text may start a line: its first ':' is escaped.
  if (end >= 2 && text.compare(0, 2, "::") == 0) {
    out += "\\x3A";
    i = 1;
  }
  while (i < end) {
    // A run of plain bytes at once: most text is nothing but that.
    std::size_t run = plain_run_end(text, i, end, quoted);
    out.append(text.substr(i, run - i));
    i = run;
    if (i == end) break;
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      Utf8Char decoded = decode_utf8(text, i);
      if (decoded.length > 0 && !is_hidden_control(decoded.code_point)) {
        out.append(text.substr(i, decoded.length));
        i += decoded.length;
        continue;
      }
      if (decoded.length > 0) {
        // Shown as its code point: visible, and inert in a terminal.
        out += fmt::format("\\u{{{:04X}}}", static_cast<std::uint32_t>(decoded.code_point));
        i += decoded.length;
        continue;
      }
    }
    // "##[" anywhere in a line is GitHub's legacy command form: its first
    // '#' is escaped; any other '#' is plain.
    if (c == '#' && text.compare(i, 3, "##[") != 0) {
      out += '#';
    } else if (c < 0x20 || c == 0x7F || c >= 0x80 || c == '#') {
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

bool printable_as_is(std::string_view text) {
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= text.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t word = word_bytes::load(text.data() + i);
    if ((word_bytes::has_control(word) | word_bytes::has_del_or_high(word)) != 0) return false;
  }
  for (; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return !text.starts_with("::") && !text.ends_with('#') &&
         text.find("##[") == std::string_view::npos;
}

}  // namespace dlpack_usm
