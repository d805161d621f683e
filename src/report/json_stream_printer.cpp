#include "report/json_stream_printer.hpp"

namespace dlpack_usm::report {
namespace {

// nlohmann::json's dump(2): the format print_json uses for whole documents.
std::string dumped(const Value& value) {
  return value.dump(2, ' ', false, Value::error_handler_t::replace);
}

}  // namespace

JsonStreamPrinter::JsonStreamPrinter(std::FILE* out) : out_(out) {
  write("{");
  scopes_.push_back({});
}

void JsonStreamPrinter::write(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), out_);
}

void JsonStreamPrinter::start_entry(std::string_view key) {
  Scope& scope = scopes_.back();
  std::string text = scope.empty ? "\n" : ",\n";
  text.append(2 * scopes_.size(), ' ');
  // Keys go through the same dump as values, so they are escaped alike.
  if (!scope.is_list) {
    text += dumped(Value(std::string(key)));
    text += ": ";
  }
  scope.empty = false;
  write(text);
}

void JsonStreamPrinter::open(std::string_view key, bool is_list) {
  start_entry(key);
  write(is_list ? "[" : "{");
  scopes_.push_back({is_list, true});
}

void JsonStreamPrinter::close() {
  Scope scope = scopes_.back();
  scopes_.pop_back();
  // An empty scope closes on its own line: "[]" and "{}", as dump writes them.
  std::string text;
  if (!scope.empty) {
    text += '\n';
    text.append(2 * scopes_.size(), ' ');
  }
  text += scope.is_list ? ']' : '}';
  write(text);
}

void JsonStreamPrinter::begin_object(std::string_view key, const TextView&) {
  open(key, false);
}

void JsonStreamPrinter::end_object() {
  close();
}

void JsonStreamPrinter::begin_list(std::string_view key, const TextView&) {
  open(key, true);
}

void JsonStreamPrinter::end_list() {
  close();
}

void JsonStreamPrinter::field(std::string_view key, const Value& value, std::string_view) {
  data(key, value);
}

void JsonStreamPrinter::data(std::string_view key, const Value& value) {
  start_entry(key);
  // The value's own dump, each of its lines as deep as this entry.
  std::string indent(2 * scopes_.size(), ' ');
  std::string text;
  for (char c : dumped(value)) {
    text += c;
    if (c == '\n') text += indent;
  }
  write(text);
}

void JsonStreamPrinter::finish() {
  close();
  write("\n");
  std::fflush(out_);
}

}  // namespace dlpack_usm::report
