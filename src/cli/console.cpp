#include "cli/console.hpp"

#include <cstdio>
#include <string>

#include <fmt/core.h>

#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::cli {

void print_warning(std::string_view message) {
  fmt::print(stderr, "dlpack-usm: warning: {}\n", message);
}

void print_note(std::string_view message) {
  fmt::print(stderr, "dlpack-usm: note: {}\n", message);
}

void print_error(std::string_view message, std::string_view hint) {
  fmt::print(stderr, "dlpack-usm: error: {}\n", message);
  if (!hint.empty()) fmt::print(stderr, "dlpack-usm: hint: {}\n", hint);
}

void print_json(const nlohmann::ordered_json& json) {
  fmt::print("{}\n", json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  std::fflush(stdout);
}

void print_report(bool json, const std::function<void(report::Printer&)>& walk) {
  if (json) {
    report::JsonPrinter printer;
    walk(printer);
    print_json(printer.document());
  } else {
    report::TextPrinter printer;
    walk(printer);
    fmt::print("{}", printer.text());
    std::fflush(stdout);
  }
}

namespace {

std::string dumped(const nlohmann::ordered_json& json) {
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

StreamedJsonArray::StreamedJsonArray(const nlohmann::ordered_json& head,
                                     std::string_view array_key) {
  // The head's own dump without its closing brace, then the array's key.
  std::string text = dumped(head);
  text.erase(text.rfind('}'));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  bool empty_head = text == "{";
  fmt::print("{}{}\n  {}: [", text, empty_head ? "" : ",", dumped(std::string(array_key)));
}

void StreamedJsonArray::add(const nlohmann::ordered_json& entry) {
  // Each line of the entry's dump, two levels deeper.
  std::string text = dumped(entry);
  std::string indented = first_ ? "\n    " : ",\n    ";
  for (char c : text) {
    indented += c;
    if (c == '\n') indented += "    ";
  }
  fmt::print("{}", indented);
  first_ = false;
}

void StreamedJsonArray::finish() {
  fmt::print("\n  ]\n}}\n");
  std::fflush(stdout);
}

}  // namespace dlpack_usm::cli
