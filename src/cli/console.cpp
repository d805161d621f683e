#include "cli/console.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/printable.hpp"
#include "common/terminal_width.hpp"
#include "common/text_width.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::cli {

namespace {

constexpr std::string_view kNotePrefix = "dlpack-usm: note: ";

bool diagnostic_lost = false;

}  // namespace

void write_to(std::FILE* stream, std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stream) != text.size() || std::fflush(stream) != 0) {
    diagnostic_lost = true;
    std::clearerr(stream);
  }
}

void write_diagnostic(std::string_view text) {
  write_to(stderr, text);
}

bool output_lost() {
  return diagnostic_lost || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
}

// Diagnostics quote paths, labels and driver text: escaped, each stays one
// line that a log reader can trust.
void print_warning(std::string_view message) {
  write_diagnostic(fmt::format("dlpack-usm: warning: {}\n", printable(message)));
}

// A note is for people: where they set a width (a terminal, COLUMNS) it
// wraps to it, its later lines indented; in a log it stays one line.
void print_note(std::string_view message) {
  std::size_t width = terminal_width(STDERR_FILENO, 0);
  std::size_t first = width > kNotePrefix.size() ? width - kNotePrefix.size() : width;
  std::vector<std::string> lines =
      wrap_to_columns(printable(message), first, width > 2 ? width - 2 : width);
  std::string text = fmt::format("{}{}\n", kNotePrefix, lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) text += fmt::format("  {}\n", lines[i]);
  write_diagnostic(text);
}

void print_error(std::string_view message, std::string_view hint) {
  std::string text = fmt::format("dlpack-usm: error: {}\n", printable(message));
  if (!hint.empty()) text += fmt::format("dlpack-usm: hint: {}\n", printable(hint));
  write_diagnostic(text);
}

void print_json(const nlohmann::ordered_json& json) {
  fmt::print("{}\n", json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  std::fflush(stdout);
}

void print_report(bool json, const std::function<void(report::Printer&)>& walk, std::size_t width) {
  if (json) {
    report::JsonPrinter printer;
    walk(printer);
    print_json(printer.document());
  } else {
    report::TextPrinter printer(width);
    walk(printer);
    fmt::print("{}", printer.text());
    std::fflush(stdout);
  }
}

}  // namespace dlpack_usm::cli
