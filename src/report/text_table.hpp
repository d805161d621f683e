// An aligned plain-text table: the text writer every command shares.
#pragma once

#include <string>
#include <vector>

namespace dlpack_usm::report {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  // Keeps column `column` whole when the table is narrowed to a width: the
  // line is cut at its end rather than this column's cells.
  void keep_whole(std::size_t column) { whole_.push_back(column); }
  // Where the table is wider than the width it is rendered at, shows each
  // row as a record instead of cutting its cells: the columns kept whole on
  // its first line, then a line per other cell that has text ("NAME: ..."),
  // wrapped. For tables whose every cell matters (list-devices --verbose).
  void stack_when_too_wide() { stack_ = true; }
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  std::size_t row_count() const { return rows_.size(); }
  // Fills a cell of a row added before (TextPrinter fills rows field by field).
  void set_cell(std::size_t row, std::size_t column, std::string text) {
    rows_[row][column] = std::move(text);
  }
  // Columns are padded to their widest cell and separated by two spaces;
  // the last column is never padded, so lines carry no trailing blanks.
  // With a `width` (columns of the terminal, 0 for none) the widest columns
  // give way first, down to a few columns each, their cells cut with "…";
  // the columns kept whole never; a line still too wide is cut at the
  // width.
  std::string render(const std::string& indent = "", std::size_t width = 0) const;

  // For writers of other table formats (Markdown).
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> whole_;
  bool stack_ = false;
};

}  // namespace dlpack_usm::report
