#include "report/json_stream_printer.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <iterator>
#include <utility>

#include "common/word_bytes.hpp"

namespace dlpack_usm::report {
namespace {

// nlohmann::json's dump(2): the format print_json uses for whole documents.
std::string dumped(const Value& value) {
  return value.dump(2, ' ', false, Value::error_handler_t::replace);
}

// Whether a byte goes into a JSON string as it is: printable ASCII but a
// quote or a backslash. Looked up: a capture's millions of origins come
// through here.
constexpr std::array<bool, 256> kBareBytes = [] {
  std::array<bool, 256> bare{};
  for (unsigned byte = 0x20; byte < 0x7F; ++byte) bare[byte] = byte != '"' && byte != '\\';
  return bare;
}();

// Whether `text` goes into a JSON string as it is, so that dump would
// write it between quotes unchanged: eight bytes at a time, then the rest.
bool bare_text(std::string_view text) {
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= text.size(); i += sizeof(std::uint64_t)) {
    if (word_bytes::json_stop_bytes(word_bytes::load(text.data() + i)) != 0) return false;
  }
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i), text.end(),
                     [](char c) { return kBareBytes[static_cast<unsigned char>(c)]; });
}

// A string as dump writes it. One of printable ASCII without a quote or a
// backslash is itself in quotes; anything else (an escape, UTF-8 to check)
// goes through dump, so the bytes stay dump's.
std::string json_string(std::string_view text) {
  if (!bare_text(text)) return dumped(Value(std::string(text)));
  std::string quoted(1, '"');
  quoted.append(text).push_back('"');
  return quoted;
}

// Text is handed to the stream in pieces of about this size: a write an
// entry (a tensor of capsule check has seven) cost more than the entry.
constexpr std::size_t kWriteBytes = std::size_t{64} << 10;

// A line break and the deepest indentation written from one literal.
constexpr std::string_view kBreakAndSpaces =
    "\n                                                                "
    "                                                                ";

}  // namespace

JsonStreamPrinter::JsonStreamPrinter(std::FILE* out)
    : out_(out), write_through_(isatty(fileno(out)) != 0), held_(kWriteBytes) {
  put('{');
  flush_grown();
  scopes_.push_back({});
}

// What does not fit in the buffer: written out with it, or at once where
// it is larger.
void JsonStreamPrinter::put_past_held(std::string_view text) {
  drain();
  if (text.size() > held_.size()) {
    fwrite_unlocked(text.data(), 1, text.size(), out_);
    return;
  }
  std::memcpy(held_.data(), text.data(), text.size());
  used_ = text.size();
}

// A string as dump writes it, without a string of its own where it needs
// no escape (json_string).
void JsonStreamPrinter::put_string(std::string_view text) {
  if (!bare_text(text)) {
    put(json_string(text));
    return;
  }
  put('"');
  put(text);
  put('"');
}

// A line break and `depth` levels of indentation.
void JsonStreamPrinter::put_break(std::size_t depth) {
  std::size_t spaces = 2 * depth;
  std::size_t most = kBreakAndSpaces.size() - 1;
  put(kBreakAndSpaces.substr(0, 1 + std::min(spaces, most)));
  for (spaces -= std::min(spaces, most); spaces > 0; spaces -= std::min(spaces, most)) {
    put(kBreakAndSpaces.substr(1, std::min(spaces, most)));
  }
}

// Entry by entry on a terminal, where a person reads them as they come.
void JsonStreamPrinter::flush_grown() {
  if (write_through_) drain();
}

void JsonStreamPrinter::drain() {
  // One thread walks a report: the stream's lock guards nothing here.
  fwrite_unlocked(held_.data(), 1, used_, out_);
  used_ = 0;
  ++drains_;
}

void JsonStreamPrinter::begin_entry(std::string_view key) {
  Scope& scope = scopes_.back();
  put(entry_start(EntryPlace{scope.is_list ? std::string_view() : key, scopes_.size(), scope.empty,
                             scope.is_list}));
  scope.empty = false;
}

// The separator, line break and indentation that begin an entry, and its key
// (none in a list), made once for each place met: a walk over millions of
// items (capsule check's tensors) begins the same entries over and over.
// Kept in a few slots picked by the key's length, first byte and depth; a
// place meeting another's slot makes its own bytes there.
std::string_view JsonStreamPrinter::entry_start(const EntryPlace& place) {
  std::size_t slot = place.key.size() * 31 + place.depth * 2 + (place.first ? 1 : 0) +
                     (place.key.empty() ? 0 : static_cast<unsigned char>(place.key[0]) * 7);
  EntryStart& start = entry_starts_[slot % entry_starts_.size()];
  if (start.made && start.depth == place.depth && start.first == place.first &&
      start.in_list == place.in_list && start.key == place.key) {
    return start.bytes;
  }
  start.bytes.assign(place.first ? "\n" : ",\n");
  start.bytes.append(2 * place.depth, ' ');
  // Keys are written as string values are, so they are escaped alike.
  if (!place.in_list) {
    start.bytes.append(json_string(place.key)).append(": ");
  }
  start.key.assign(place.key);
  start.depth = place.depth;
  start.first = place.first;
  start.in_list = place.in_list;
  start.made = true;
  return start.bytes;
}

void JsonStreamPrinter::open(std::string_view key, bool is_list) {
  begin_entry(key);
  put(is_list ? '[' : '{');
  flush_grown();
  scopes_.push_back({is_list, true});
}

void JsonStreamPrinter::close() {
  Scope scope = scopes_.back();
  scopes_.pop_back();
  // An empty scope closes on its own line: "[]" and "{}", as dump writes them.
  if (!scope.empty) put_break(scopes_.size());
  put(scope.is_list ? ']' : '}');
  flush_grown();
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
  std::string dump = dumped(value);
  std::string_view rest = dump;
  for (std::size_t line_end = rest.find('\n'); line_end != std::string_view::npos;
       line_end = rest.find('\n')) {
    put(rest.substr(0, line_end));
    put_break(scopes_.size());
    rest.remove_prefix(line_end + 1);
  }
  put(rest);
  flush_grown();
}

void JsonStreamPrinter::data_text(std::string_view key, std::string_view text) {
  begin_entry(key);
  bool marked = marking_ && marking_->begin == std::string_view::npos &&
                scopes_.size() == marking_->depth && key == marking_->key &&
                text.data() == marking_->text.data() && text.size() == marking_->text.size();
  put_string(text);
  if (marked) {
    // Between its quotes: item_alike checked that it needs no escape.
    marking_->end = used_ - 1;
    marking_->begin = marking_->end - text.size();
  }
  flush_grown();
}

void JsonStreamPrinter::item_alike(std::string_view key, std::string_view text, ItemPrint print) {
  Scope& scope = scopes_.back();
  bool bare = bare_text(text);
  // The item's object is one deeper than the list, its members two.
  std::size_t depth = scopes_.size();
  if (bare && !scope.empty && !write_through_ && item_bytes_.print == print &&
      item_bytes_.depth == depth && item_bytes_.key == key) {
    put(item_bytes_.before);
    put(text);
    put(item_bytes_.after);
    return;
  }
  // Printed, and kept where it can be: not the first item (whose
  // separator differs), its text needing no escape, all of it still held.
  bool keep = bare && !scope.empty && !write_through_;
  std::size_t begin = used_;
  std::size_t drains = drains_;
  if (keep) marking_ = ItemMark{key, text, depth + 1};
  print(*this, text);
  std::optional<ItemMark> mark = std::exchange(marking_, std::nullopt);
  if (!keep || drains != drains_ || !mark || mark->begin == std::string_view::npos) return;
  // Kept where the text went there alone.
  std::string_view before(held_.data() + begin, mark->begin - begin);
  std::string_view after(held_.data() + mark->end, used_ - mark->end);
  if (before.find(text) != std::string_view::npos || after.find(text) != std::string_view::npos) {
    return;
  }
  item_bytes_.print = print;
  item_bytes_.key.assign(key);
  item_bytes_.depth = depth;
  item_bytes_.before.assign(before);
  item_bytes_.after.assign(after);
}

void JsonStreamPrinter::data_count(std::string_view key, std::uint64_t count) {
  begin_entry(key);
  char digits[24];
  put(std::string_view(digits, std::to_chars(std::begin(digits), std::end(digits), count).ptr));
  flush_grown();
}

void JsonStreamPrinter::finish() {
  close();
  put('\n');
  drain();
  std::fflush(out_);
}

}  // namespace dlpack_usm::report
