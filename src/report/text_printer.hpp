// The printer for people: lines, aligned "key  value" blocks and tables,
// indented by the scopes' TextViews. Values for machines are dropped. Every
// text it is given is escaped (common/printable): device and driver names,
// labels, messages and selector text reach a terminal without a control
// byte, and a newline inside one never starts a line of its own.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/printer.hpp"

namespace dlpack_usm::report {

class TextPrinter final : public Printer {
 public:
  // `width`: the columns every line is fitted to (0: none). Lines and
  // titles wrap at blanks, continued two columns further in; a block's
  // values wrap under themselves; tables narrow their widest columns.
  explicit TextPrinter(std::size_t width = 0);

  void begin_object(std::string_view key, const TextView& view = {}) override;
  void end_object() override;
  void begin_list(std::string_view key, const TextView& view = {}) override;
  void end_list() override;
  void field(std::string_view key, const Value& value, std::string_view shown) override;
  void data_text(std::string_view, std::string_view) override {}
  void data_count(std::string_view, std::uint64_t) override {}
  void line(std::string_view text) override;
  void whole_line(std::string_view text) override;
  void table(const TextTable& table) override;
  // From the bytes of the last item `print` gave in the same scope, `text`
  // put in place, where text is printed as it is (printable_as_is) and
  // nothing waits to be printed before the item (a title, a block).
  void item_alike(std::string_view key, std::string_view text, ItemPrint print) override;

  // The text so far, the last block included.
  std::string text();
  // The text so far, handed over and forgotten: a walk too long to hold
  // writes it out between its top-level items (a table still open would
  // lose its alignment, so only there).
  std::string take_text();
  // The same into `text`, whose buffer the printer takes in exchange: a
  // walk drained after each of millions of items allocates nothing for it.
  void take_text(std::string& text);
  // The bytes of text held (an aligned block still open aside): a walk
  // drains it when it has grown.
  std::size_t text_size() const { return out_.size(); }

 private:
  struct Scope {
    std::string indent;  // of the content
    bool titled = false;
    // The title until it is printed, at the enclosing scope's content indent
    // (`title_indent`), before the scope's first content.
    std::string pending_title;
    std::string title_indent;
    bool hidden = false;
    bool is_list = false;
    // A scope showing a table owns it; rows of nested scopes go there.
    std::vector<Column> columns;
    std::optional<TextTable> table;
    std::size_t table_owner = 0;     // index of the scope owning the table in use
    std::optional<std::size_t> row;  // this object's row in that table
  };

  void begin_scope(const TextView& view, bool is_list);
  void end_scope();
  // Prints the titles not printed yet, outermost first, so that content
  // appears under them.
  void print_titles();
  // Renders the pending block of aligned rows.
  void flush_block();
  // Writes `text` (escaped) after `prefix`, wrapped to the width with its
  // continuation lines starting with `continuation`.
  void write_wrapped(const std::string& prefix, std::string_view text,
                     const std::string& continuation);
  bool in_table() const;
  bool is_plain(const TextView& view) const;
  Scope& current() { return scopes_[depth_ - 1]; }
  const Scope& current() const { return scopes_[depth_ - 1]; }

  std::size_t width_ = 0;
  std::string out_;
  // Slots of the scopes open (the first depth_), and of scopes closed,
  // kept for reuse.
  std::vector<Scope> scopes_;
  std::size_t depth_ = 0;
  // For each scope open, whether it took a slot (is_plain's scopes do not).
  std::vector<bool> slotted_;

  // Whether an item printed now would start on a line of its own, with
  // nothing printed before it (a title, a block) and no table or width.
  bool item_stands_alone() const;
  void mark_line(std::string_view line);
  // The bytes of an item_alike item around its text, and where they hold:
  // its print, the scopes open (their number and indentation).
  struct ItemBytes {
    ItemPrint print = nullptr;
    std::size_t scopes = 0;
    std::string indent;
    std::string before;
    std::string after;
  };
  ItemBytes item_bytes_;
  // While an item_alike item is printed to be kept: its text, and where in
  // out_ the line starting with it put it (npos: no such line yet).
  struct ItemMark {
    std::string_view text;
    std::size_t begin = std::string::npos;
    std::size_t lines = 0;
  };
  std::optional<ItemMark> marking_;
  // "key  shown" rows waiting to be aligned together, at `block_indent_`.
  std::vector<std::pair<std::string, std::string>> block_;
  std::string block_indent_;
};

// The text a walk writes, as in `render_text(print_rules, rules)`.
template <typename Model>
std::string render_text(void (*walk)(Printer&, const Model&), const Model& model) {
  TextPrinter printer;
  walk(printer, model);
  return printer.text();
}

}  // namespace dlpack_usm::report
