// The printer for machines when the document is too large to hold: it
// writes JSON as the walk opens scopes and gives values, byte for byte what
// print_json prints for the document JsonPrinter would have built (two-space
// indentation, invalid UTF-8 replaced). Memory follows the largest single
// value, not the document: `capsule check` and `capsule dump` stream every
// tensor of a 64 MiB file through it.
#pragma once

#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "report/printer.hpp"

namespace dlpack_usm::report {

class JsonStreamPrinter final : public Printer {
 public:
  // Opens the root object on `out`; finish() closes it.
  explicit JsonStreamPrinter(std::FILE* out);

  void begin_object(std::string_view key, const TextView& view = {}) override;
  void end_object() override;
  void begin_list(std::string_view key, const TextView& view = {}) override;
  void end_list() override;
  void field(std::string_view key, const Value& value, std::string_view shown) override;
  void data(std::string_view key, const Value& value) override;
  void data_text(std::string_view key, std::string_view text) override;
  void data_count(std::string_view key, std::uint64_t count) override;
  // From the bytes of the last item `print` gave at this depth (not the
  // first of its list), `text` put in place, where `text` needs no escape.
  void item_alike(std::string_view key, std::string_view text, ItemPrint print) override;

  // Closes the root object, ends the line and flushes. Every scope the walk
  // opened must be closed by then. Until then, text is handed to the
  // stream in pieces of 64 KiB (entry by entry on a terminal).
  void finish();

 private:
  struct Scope {
    bool is_list = false;
    bool empty = true;
  };
  // Adds the separator, line break, indentation and (in an object) the key
  // of the next member or item; the caller adds the value.
  void begin_entry(std::string_view key);
  struct EntryPlace {
    std::string_view key;  // none in a list
    std::size_t depth = 0;
    bool first = false;
    bool in_list = false;
  };
  std::string_view entry_start(const EntryPlace& place);
  void open(std::string_view key, bool is_list);
  void close();
  // Inline: an entry is a dozen small pieces.
  void put(std::string_view text) {
    if (text.size() > held_.size() - used_) return put_past_held(text);
    std::memcpy(held_.data() + used_, text.data(), text.size());
    used_ += text.size();
  }
  void put(char c) {
    if (used_ == held_.size()) drain();
    held_[used_++] = c;
  }
  void put_past_held(std::string_view text);
  void put_string(std::string_view text);
  void put_break(std::size_t depth);
  // Hands what is held to the stream now on a terminal; elsewhere put does
  // once the buffer is full.
  void flush_grown();
  void drain();

  std::FILE* out_;
  bool write_through_;
  std::vector<Scope> scopes_;
  std::vector<char> held_;  // written, not yet handed to out_
  std::size_t used_ = 0;
  struct EntryStart {
    std::string key;
    std::size_t depth = 0;
    bool first = false;
    bool in_list = false;
    bool made = false;
    std::string bytes;
  };
  std::array<EntryStart, 32> entry_starts_;
  std::size_t drains_ = 0;  // how often held_ was handed over
  // The bytes of an item_alike item around its text, and what they hold
  // for: its print, its key and its depth.
  struct ItemBytes {
    ItemPrint print = nullptr;
    std::string key;
    std::size_t depth = 0;
    std::string before;
    std::string after;
  };
  ItemBytes item_bytes_;
  // While an item_alike item is printed to be kept: its text's key and
  // depth, and where in held_ its text went (npos until data_text gives it).
  struct ItemMark {
    std::string_view key;
    std::string_view text;
    std::size_t depth = 0;
    std::size_t begin = std::string_view::npos;
    std::size_t end = 0;
  };
  std::optional<ItemMark> marking_;
};

}  // namespace dlpack_usm::report
