// The printer for machines when the document is too large to hold: it
// writes JSON as the walk opens scopes and gives values, byte for byte what
// print_json prints for the document JsonPrinter would have built (two-space
// indentation, invalid UTF-8 replaced). Memory follows the largest single
// value, not the document: `capsule check` and `capsule dump` stream every
// tensor of a 64 MiB file through it.
#pragma once

#include <cstdio>
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

  // Closes the root object, ends the line and flushes. Every scope the walk
  // opened must be closed by then.
  void finish();

 private:
  struct Scope {
    bool is_list = false;
    bool empty = true;
  };
  // Starts `entry_` with the separator, line break, indentation and (in an
  // object) the key of the next member or item; the caller adds the value
  // and writes it.
  void begin_entry(std::string_view key);
  void open(std::string_view key, bool is_list);
  void close();
  void write(std::string_view text);

  std::FILE* out_;
  std::vector<Scope> scopes_;
  std::string entry_;  // the entry being written, its buffer kept
};

}  // namespace dlpack_usm::report
