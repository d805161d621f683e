// --color auto|always|never, the option of the commands that print a status
// for people (check, report merge, capsule check), and the NO_COLOR
// convention (no-color.org): colour only on a terminal, only when asked.
#pragma once

#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

namespace dlpack_usm::cli {

enum class ColorMode { automatic, always, never };

// Declares --color WHEN on `command`, stored in `mode`.
void add_color_option(CLI::App& command, ColorMode& mode);

// Whether text for `stream` gets colour: always, never, or (auto) when the
// stream is a terminal, NO_COLOR is unset or empty, and TERM is not "dumb".
// An explicit --color always wins over NO_COLOR, as no-color.org asks.
bool use_color(ColorMode mode, std::FILE* stream);

// `text` coloured (report/status_colors.hpp) when use_color says so.
std::string colored_for(ColorMode mode, std::FILE* stream, const std::string& text);

}  // namespace dlpack_usm::cli
