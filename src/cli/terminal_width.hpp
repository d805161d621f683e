// How wide the lines of text output may be: what people read on a terminal.
#pragma once

#include <cstddef>

namespace dlpack_usm::cli {

// COLUMNS when it holds a positive number; else the width of the terminal
// stdout is (TIOCGWINSZ); else 0, no limit: text piped or written to a file
// keeps every character, for grep and logs.
std::size_t output_width();

}  // namespace dlpack_usm::cli
