#include "report/text_printer.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "common/printable.hpp"
#include "common/text_width.hpp"

namespace dlpack_usm::report {

namespace {

// A block's value wraps under itself where this much room is left beside
// its keys, and under the keys otherwise.
constexpr std::size_t kRoomForAValue = 20;

}  // namespace

TextPrinter::TextPrinter(std::size_t width) : width_(width) {
  scopes_.emplace_back();  // the document itself
  depth_ = 1;
}

// A scope that shows nothing of its own (no title, indent, table or
// hiding) outside a table prints as its enclosing scope does: it takes no
// slot. Outside a table, whether a scope is a list or an object is never
// asked. A capture's millions of tensors open three such scopes each.
bool TextPrinter::is_plain(const TextView& view) const {
  return view.title.empty() && view.indent == 0 && view.columns.empty() && !view.hidden &&
         !in_table();
}

void TextPrinter::begin_scope(const TextView& view, bool is_list) {
  if (is_plain(view)) {
    slotted_.push_back(false);
    return;
  }
  slotted_.push_back(true);
  // Slots are reused, not made: making each (its strings, its table) cost
  // more than printing what it holds.
  if (depth_ == scopes_.size()) scopes_.emplace_back();
  const Scope& parent = scopes_[depth_ - 1];
  Scope& scope = scopes_[depth_];
  scope.title_indent.assign(parent.indent);
  scope.indent.assign(parent.indent);
  scope.indent.append(view.indent, ' ');
  scope.titled = !view.title.empty();
  scope.pending_title.assign(view.title);
  scope.hidden = parent.hidden || view.hidden;
  scope.is_list = is_list;
  scope.table_owner = parent.table_owner;
  scope.columns.clear();
  scope.table.reset();
  scope.row.reset();
  if (!view.columns.empty()) {
    scope.columns = view.columns;
    std::vector<std::string> headings;
    for (const Column& column : view.columns) headings.push_back(column.heading);
    scope.table.emplace(std::move(headings));
    for (std::size_t i = 0; i < view.columns.size(); ++i) {
      if (view.columns[i].whole) scope.table->keep_whole(i);
    }
    if (view.stack_when_too_wide) scope.table->stack_when_too_wide();
    scope.table_owner = depth_;
  } else if (!is_list && parent.is_list && in_table() && !scope.hidden) {
    // An object of a list shown as a table is a row of that table (a
    // hidden list's objects are rows of no table).
    Scope& owner = scopes_[parent.table_owner];
    scope.row = owner.table->row_count();
    owner.table->add_row(std::vector<std::string>(owner.columns.size()));
  }
  ++depth_;
}

void TextPrinter::end_scope() {
  bool slotted = slotted_.back();
  slotted_.pop_back();
  if (!slotted) return;
  Scope& scope = current();
  if (scope.table && !scope.table->empty() && !scope.hidden) {
    print_titles();
    flush_block();
    out_ += scope.table->render(scope.indent, width_);
  }
  // A titled block ends with its scope: the enclosing scope's next rows
  // are aligned on their own.
  if (scope.titled) flush_block();
  // Its table goes with it; the slot's buffers stay for the next scope.
  scope.table.reset();
  --depth_;
}

// Scope 0, the document, never shows a table: owner 0 means none.
bool TextPrinter::in_table() const {
  return current().table_owner != 0;
}

void TextPrinter::print_titles() {
  for (std::size_t depth = 0; depth < depth_; ++depth) {
    Scope& scope = scopes_[depth];
    if (scope.pending_title.empty()) continue;
    flush_block();
    write_wrapped(scope.title_indent, scope.pending_title, scope.title_indent + "  ");
    scope.pending_title.clear();
  }
}

void TextPrinter::flush_block() {
  std::size_t width = 0;
  for (const auto& row : block_) width = std::max(width, row.first.size());
  for (const auto& [key, shown] : block_) {
    std::string prefix = fmt::format("{}{:<{}}  ", block_indent_, key, width);
    // A value wraps under itself, unless the keys leave it too little room.
    std::string under = width_ == 0 || display_columns(prefix) + kRoomForAValue <= width_
                            ? std::string(display_columns(prefix), ' ')
                            : block_indent_ + "  ";
    write_wrapped(prefix, shown, under);
  }
  block_.clear();
}

void TextPrinter::write_wrapped(const std::string& prefix, std::string_view text,
                                const std::string& continuation) {
  // Unfitted text is one line: written in place, as wrap_after would.
  if (width_ == 0) {
    out_ += prefix;
    append_printable(out_, text);
    out_ += '\n';
    return;
  }
  out_ += wrap_after(prefix, printable(text), continuation, width_);
}

void TextPrinter::begin_object(std::string_view, const TextView& view) {
  begin_scope(view, false);
}

void TextPrinter::end_object() {
  end_scope();
}

void TextPrinter::begin_list(std::string_view, const TextView& view) {
  begin_scope(view, true);
}

void TextPrinter::end_list() {
  end_scope();
}

void TextPrinter::field(std::string_view key, const Value&, std::string_view shown) {
  const Scope& scope = current();
  if (scope.hidden) return;
  if (in_table()) {
    // The cell of the column showing `key`, in the row of the innermost row object.
    Scope& owner = scopes_[scope.table_owner];
    // The open scopes, innermost first (slots past depth_ wait for reuse).
    auto innermost = scopes_.rbegin() + static_cast<std::ptrdiff_t>(scopes_.size() - depth_);
    auto row =
        std::find_if(innermost, scopes_.rend(), [](const Scope& s) { return s.row.has_value(); });
    auto column = std::find_if(owner.columns.begin(), owner.columns.end(),
                               [key](const Column& c) { return c.key == key; });
    if (row == scopes_.rend() || column == owner.columns.end()) return;
    owner.table->set_cell(*row->row, static_cast<std::size_t>(column - owner.columns.begin()),
                          std::string(shown));
    return;
  }
  print_titles();
  if (!block_.empty() && block_indent_ != scope.indent) flush_block();
  block_indent_ = scope.indent;
  block_.emplace_back(std::string(key), std::string(shown));
}

void TextPrinter::line(std::string_view text) {
  const Scope& scope = current();
  if (scope.hidden) return;
  print_titles();
  flush_block();
  if (text.empty()) {
    out_ += '\n';
    return;
  }
  if (width_ == 0) {
    // Unfitted: one line, with no continuation to make (a capture's
    // millions of tensors each print a line).
    out_ += scope.indent;
    if (marking_) mark_line(text);
    append_printable(out_, text);
    out_ += '\n';
    return;
  }
  write_wrapped(scope.indent, text, scope.indent + "  ");
}

void TextPrinter::whole_line(std::string_view text) {
  const Scope& scope = current();
  if (scope.hidden) return;
  print_titles();
  flush_block();
  out_ += scope.indent;
  append_printable(out_, text);
  out_ += '\n';
}

void TextPrinter::table(const TextTable& table) {
  const Scope& scope = current();
  if (scope.hidden) return;
  print_titles();
  flush_block();
  out_ += table.render(scope.indent, width_);
}

// An item_alike item's line: where its text went, if the line starts with
// it and is printed as it is.
void TextPrinter::mark_line(std::string_view line) {
  ++marking_->lines;
  if (line.starts_with(marking_->text) && printable_as_is(line)) marking_->begin = out_.size();
}

bool TextPrinter::item_stands_alone() const {
  if (width_ != 0 || !block_.empty() || in_table() || current().hidden) return false;
  for (std::size_t depth = 0; depth < depth_; ++depth) {
    if (!scopes_[depth].pending_title.empty()) return false;
  }
  return true;
}

void TextPrinter::item_alike(std::string_view key, std::string_view text, ItemPrint print) {
  bool as_is = printable_as_is(text) && item_stands_alone();
  if (as_is && item_bytes_.print == print && item_bytes_.scopes == slotted_.size() &&
      item_bytes_.indent == current().indent) {
    out_ += item_bytes_.before;
    out_ += text;
    out_ += item_bytes_.after;
    return;
  }
  std::size_t begin = out_.size();
  if (as_is) marking_ = ItemMark{text};
  Printer::item_alike(key, text, print);
  std::optional<ItemMark> mark = std::exchange(marking_, std::nullopt);
  // Kept where the text went once, into one line, and nowhere else.
  if (!mark || mark->lines != 1 || mark->begin == std::string::npos) return;
  std::string_view item = std::string_view(out_).substr(begin);
  std::size_t at = mark->begin - begin;
  std::string_view after = item.substr(at + text.size());
  if (item.substr(0, at).find(text) != std::string_view::npos ||
      after.find(text) != std::string_view::npos) {
    return;
  }
  item_bytes_ = {print, slotted_.size(), current().indent, std::string(item.substr(0, at)),
                 std::string(after)};
}

std::string TextPrinter::text() {
  flush_block();
  return out_;
}

std::string TextPrinter::take_text() {
  flush_block();
  return std::exchange(out_, {});
}

void TextPrinter::take_text(std::string& text) {
  flush_block();
  text.clear();
  std::swap(text, out_);
}

}  // namespace dlpack_usm::report
