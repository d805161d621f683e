// How commands talk to the terminal: results on stdout, diagnostics on
// stderr, always prefixed with the tool's name.
#pragma once

#include <cstdio>
#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/printer.hpp"

namespace dlpack_usm::cli {

// Writes `text` to stderr, or loses it where stderr cannot be written (a
// full device, a closed pipe): a diagnostic never ends the run; main's exit
// code says it was lost (output_lost).
void write_diagnostic(std::string_view text);
// The same for `stream` (stdout or stderr): what cannot be written is lost
// and remembered, never thrown.
void write_to(std::FILE* stream, std::string_view text);
// Whether a diagnostic was lost or standard output cannot be flushed.
bool output_lost();

void print_warning(std::string_view message);
void print_note(std::string_view message);
void print_error(std::string_view message, std::string_view hint = {});
// Pretty-printed with a trailing newline; invalid UTF-8 from drivers or input
// files is replaced rather than aborting the dump.
void print_json(const nlohmann::ordered_json& json);
// A report on stdout: `walk` writes it to the JSON printer (--json) or to the
// text printer, its lines fitted to `width` columns (0: not fitted); the
// walk itself does not know which.
void print_report(bool json, const std::function<void(report::Printer&)>& walk,
                  std::size_t width = 0);

}  // namespace dlpack_usm::cli
