#include "report/json_stream_printer.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace dlpack_usm::report {
namespace {

// nlohmann::json's dump(2): the format print_json uses for whole documents.
std::string dumped(const Value& value) {
  return value.dump(2, ' ', false, Value::error_handler_t::replace);
}

// A string as dump writes it. One of printable ASCII without a quote or a
// backslash is itself in quotes; anything else (an escape, UTF-8 to check)
// goes through dump, so the bytes stay dump's.
void append_string(std::string& out, std::string_view text) {
  bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7F && c != '"' && c != '\\';
  });
  if (!plain) {
    out += dumped(Value(std::string(text)));
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

}  // namespace

JsonStreamPrinter::JsonStreamPrinter(std::FILE* out) : out_(out) {
  write("{");
  scopes_.push_back({});
}

void JsonStreamPrinter::write(std::string_view text) {
  // One thread walks a report: the stream's lock, taken for each of a
  // capture's millions of entries, guards nothing here.
  fwrite_unlocked(text.data(), 1, text.size(), out_);
}

void JsonStreamPrinter::begin_entry(std::string_view key) {
  Scope& scope = scopes_.back();
  entry_.assign(scope.empty ? "\n" : ",\n");
  entry_.append(2 * scopes_.size(), ' ');
  // Keys are written as string values are, so they are escaped alike.
  if (!scope.is_list) {
    append_string(entry_, key);
    entry_ += ": ";
  }
  scope.empty = false;
}

void JsonStreamPrinter::open(std::string_view key, bool is_list) {
  begin_entry(key);
  entry_ += is_list ? '[' : '{';
  write(entry_);
  scopes_.push_back({is_list, true});
}

void JsonStreamPrinter::close() {
  Scope scope = scopes_.back();
  scopes_.pop_back();
  // An empty scope closes on its own line: "[]" and "{}", as dump writes them.
  entry_.clear();
  if (!scope.empty) {
    entry_ += '\n';
    entry_.append(2 * scopes_.size(), ' ');
  }
  entry_ += scope.is_list ? ']' : '}';
  write(entry_);
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
  begin_entry(key);
  // The value's own dump, each of its lines as deep as this entry.
  std::size_t depth = 2 * scopes_.size();
  for (char c : dumped(value)) {
    entry_ += c;
    if (c == '\n') entry_.append(depth, ' ');
  }
  write(entry_);
}

void JsonStreamPrinter::data_text(std::string_view key, std::string_view text) {
  begin_entry(key);
  append_string(entry_, text);
  write(entry_);
}

void JsonStreamPrinter::data_count(std::string_view key, std::uint64_t count) {
  begin_entry(key);
  fmt::format_to(std::back_inserter(entry_), "{}", count);
  write(entry_);
}

void JsonStreamPrinter::finish() {
  close();
  write("\n");
  std::fflush(out_);
}

}  // namespace dlpack_usm::report
