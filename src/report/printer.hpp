// The printer every report writes to. A report is one function that walks
// its model and says, for each value, what machines get (a typed value
// under a key) and what people see (a line, an aligned "key  value" row, a
// table cell). TextPrinter and JsonPrinter are the only code that knows a
// format, as llvm-readobj's ScopedPrinter and JSONScopedPrinter are: JSON
// swaps the printer, not the walk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/text_table.hpp"

namespace dlpack_usm::report {

// A value as machines read it: a string, a number, a bool, null, a list of
// them, or a small object where text shows it as one cell (a dtype, a version).
using Value = nlohmann::ordered_json;

// A column of a text table: its heading and the key of the field it shows.
// A table narrowed to a width cuts the cells of its other columns, never
// those of a `whole` column (names people type elsewhere): where that is not
// enough, the line is cut at its end.
struct Column {
  std::string heading;
  std::string key;
  bool whole = false;
};

// How a scope looks in text. Machines see only its key; every member is
// optional, and the default scope is invisible to people.
struct TextView {
  // A line before the scope's content, at the enclosing indentation, printed
  // only once the scope has content (an empty list prints nothing).
  std::string title;
  // Added to the enclosing indentation for the scope's content.
  std::size_t indent = 0;
  // A list shown as a table: each object of the list (and of lists nested in
  // those objects) is a row, its fields the cells of the columns named by
  // their keys. An empty table prints nothing.
  std::vector<Column> columns;
  // Rows shown as records rather than cut where the table is too wide
  // (TextTable::stack_when_too_wide).
  bool stack_when_too_wide = false;
  // Nothing inside reaches the text (a part only machines read, such as the
  // inventory embedded in the check report).
  bool hidden = false;
};

class Printer {
 public:
  Printer() = default;
  Printer(const Printer&) = delete;
  Printer& operator=(const Printer&) = delete;
  virtual ~Printer() = default;

  // An object under `key`, or the next item when the enclosing scope is a list.
  virtual void begin_object(std::string_view key, const TextView& view = {}) = 0;
  virtual void end_object() = 0;
  // A list under `key`, or the next item when the enclosing scope is a list.
  virtual void begin_list(std::string_view key, const TextView& view = {}) = 0;
  virtual void end_list() = 0;

  // For both: machines get `value` under `key`; people see `shown`, as a cell
  // of a table row or as a row of the scope's aligned "key  shown" block.
  virtual void field(std::string_view key, const Value& value, std::string_view shown) = 0;

  // The rest is for one audience; the other printer drops it.
  // For machines: `value` under `key`, or the next item of the enclosing list
  // (whose items have no key).
  virtual void data(std::string_view /*key*/, const Value& /*value*/) {}
  // The same for a string and for a count, which a printer may write
  // without building a Value: a walk over millions of items (capsule check)
  // gives these, and the text printer drops them unread.
  virtual void data_text(std::string_view key, std::string_view text) {
    data(key, Value(std::string(text)));
  }
  virtual void data_count(std::string_view key, std::uint64_t count) { data(key, Value(count)); }
  // For people: one line at the current indentation. Text printers escape
  // control bytes (newlines included) and bytes that are not UTF-8, as they
  // do in fields, titles and table cells: reports carry what drivers,
  // libraries and other reports said, and none of it may forge a line.
  virtual void line(std::string_view /*text*/) {}
  // For people: a line that must stay whole however narrow the output (a
  // command to copy and paste): escaped as line() escapes, never wrapped.
  virtual void whole_line(std::string_view text) { line(text); }
  // For people: a table at the current indentation.
  virtual void table(const TextTable& /*table*/) {}

  // The next item of the enclosing list, as `print` prints it: every item
  // `print` gives is the same but for `text`, which it gives under `key`
  // (data_text) and nowhere else to machines. A walk over millions of such
  // items (capsule check's tensors without findings) lets a printer write
  // an item from the bytes of an earlier one with `text` put in place,
  // where that gives the same bytes. By default each is printed.
  using ItemPrint = void (*)(Printer& printer, std::string_view text);
  virtual void item_alike(std::string_view /*key*/, std::string_view text, ItemPrint print) {
    print(*this, text);
  }
};

// Opens an object or a list for its lifetime and closes it, as llvm's
// DictScope and ListScope do.
template <void (Printer::*Begin)(std::string_view, const TextView&), void (Printer::*End)()>
class PrinterScope {
 public:
  PrinterScope(Printer& printer, std::string_view key, const TextView& view = {})
      : printer_(printer) {
    (printer_.*Begin)(key, view);
  }
  ~PrinterScope() { (printer_.*End)(); }
  PrinterScope(const PrinterScope&) = delete;
  PrinterScope& operator=(const PrinterScope&) = delete;

 private:
  Printer& printer_;
};

using ObjectScope = PrinterScope<&Printer::begin_object, &Printer::end_object>;
using ListScope = PrinterScope<&Printer::begin_list, &Printer::end_list>;

}  // namespace dlpack_usm::report
