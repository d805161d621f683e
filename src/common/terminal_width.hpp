// How wide the terminal is, and text cut to it: a line that wraps breaks
// the progress line rewritten in place with '\r'.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlpack_usm {

// Columns when nothing says otherwise (stderr is a log, COLUMNS unset).
inline constexpr std::size_t kDefaultColumns = 80;

// The width the user set in COLUMNS (a positive number), else the width of
// the terminal on `fd`, else kDefaultColumns.
std::size_t terminal_columns(int fd);

// `text` cut to at most `columns` characters (UTF-8 code points, each
// taken as one column; never cut inside one), with no mark of the cut: the
// progress line is rewritten in place (text_width.hpp marks its cuts).
std::string truncate_to_columns(std::string_view text, std::size_t columns);

}  // namespace dlpack_usm
