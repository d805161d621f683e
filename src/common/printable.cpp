#include "common/printable.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace dlpack_usm {
namespace {

// Whether `c` goes out as it is: printable ASCII, quotes and backslashes
// aside inside quotes. '#' is looked at on its own ("##[").
bool plain_byte(unsigned char c, bool quoted) {
  return c >= 0x20 && c < 0x7F && c != '#' && !(quoted && (c == '"' || c == '\\'));
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
    std::size_t run = i;
    while (run < end && plain_byte(static_cast<unsigned char>(text[run]), quoted)) ++run;
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

}  // namespace dlpack_usm
