#include "cli/console.hpp"

#include <cstdio>
#include <string>

#include <fmt/core.h>

#include "common/printable.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::cli {

// Diagnostics quote paths, labels and driver text: escaped, each stays one
// line that a log reader can trust.
void print_warning(std::string_view message) {
  fmt::print(stderr, "dlpack-usm: warning: {}\n", printable(message));
}

void print_note(std::string_view message) {
  fmt::print(stderr, "dlpack-usm: note: {}\n", printable(message));
}

void print_error(std::string_view message, std::string_view hint) {
  fmt::print(stderr, "dlpack-usm: error: {}\n", printable(message));
  if (!hint.empty()) fmt::print(stderr, "dlpack-usm: hint: {}\n", printable(hint));
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
