// Strict UTF-8 decoding for the escapers at the tool's output edge
// (printable text, XML): one code point at a time, refusing overlong forms,
// surrogates and code points past U+10FFFF.
#pragma once

#include <cstddef>
#include <string_view>

namespace dlpack_usm {

struct Utf8Char {
  char32_t code_point = 0;
  std::size_t length = 0;  // 0: no well-formed sequence starts here
};

// The code point whose sequence starts at text[i].
Utf8Char decode_utf8(std::string_view text, std::size_t i);

// Code points a terminal or a log viewer acts on instead of showing: C1
// controls (U+0080..U+009F: CSI, NEL...), bidirectional overrides and marks
// (which reorder what a reader sees), line and paragraph separators,
// zero-width no-break space, and the noncharacters U+FFFE and U+FFFF.
bool is_hidden_control(char32_t code_point);

}  // namespace dlpack_usm
