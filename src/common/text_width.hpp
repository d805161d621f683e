// Text fitted to a width in columns: the lines people read on a terminal of
// COLUMNS columns. A column is a code point of UTF-8 text (the text printers
// write escaped, valid UTF-8; East Asian wide characters count as one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm {

// Columns `text` takes: its code points.
std::size_t display_columns(std::string_view text);

// `text` cut to at most `width` columns, its end replaced by `mark` when it
// was cut; never split inside a UTF-8 sequence. A width of 0 means no limit.
// The progress line, rewritten in place, is cut with no mark.
std::string cut_to_columns(std::string_view text, std::size_t width, std::string_view mark = "…");

// `text` broken into lines of at most `width` columns at spaces; the first
// line gets `first_width` columns, the rest `width`. A word longer than a
// line stays whole on a line of its own (a path or a command must stay
// copyable). A width of 0 means no limit: one line.
std::vector<std::string> wrap_to_columns(std::string_view text, std::size_t first_width,
                                         std::size_t width);

// `text` after `prefix`, wrapped to `width` columns with its later lines
// starting with `continuation`: the lines, each ending in a newline. Every
// line keeps at least a few columns for words, however long its prefix. A
// width of 0 means no limit: one line.
std::string wrap_after(std::string_view prefix, std::string_view text,
                       std::string_view continuation, std::size_t width);

}  // namespace dlpack_usm
