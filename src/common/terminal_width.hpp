// How wide the lines people read may be: the width COLUMNS sets, else the
// width of the terminal the text goes to. Text piped or written to a file
// has no width unless COLUMNS gives one: it keeps every character, for grep
// and logs.
#pragma once

#include <cstddef>

namespace dlpack_usm {

// Columns when a line must fit something and nothing says how wide it is
// (the progress line on a terminal that does not answer).
inline constexpr std::size_t kDefaultColumns = 80;

// The width the user set in COLUMNS (digits only, 1 up to a width no
// terminal has), else 0.
std::size_t columns_setting();

// COLUMNS where it is set; else the width of the terminal `fd` is; else
// `fallback` (0: no limit).
std::size_t terminal_width(int fd, std::size_t fallback);

}  // namespace dlpack_usm
