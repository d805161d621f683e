#include "report/text_table.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "common/printable.hpp"
#include "common/text_width.hpp"

namespace dlpack_usm::report {
namespace {

// A column cut narrower than this says too little to be worth its place;
// past it the line itself is cut.
constexpr std::size_t kNarrowestColumn = 6;

// Narrows the widest column that is not kept whole, a column at a time,
// until the table fits `available` columns or none can give more.
void fit_columns(std::vector<std::size_t>& widths, std::size_t available,
                 const std::vector<std::size_t>& whole) {
  std::size_t total = 2 * (widths.size() - 1);
  for (std::size_t width : widths) total += width;
  auto may_narrow = [&whole, &widths](std::size_t column) {
    return widths[column] > kNarrowestColumn &&
           std::find(whole.begin(), whole.end(), column) == whole.end();
  };
  while (total > available) {
    std::optional<std::size_t> widest;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      if (may_narrow(i) && (!widest || widths[i] > widths[*widest])) widest = i;
    }
    if (!widest) return;
    --widths[*widest];
    --total;
  }
}

std::size_t total_width(const std::vector<std::size_t>& widths) {
  std::size_t total = widths.empty() ? 0 : 2 * (widths.size() - 1);
  for (std::size_t width : widths) total += width;
  return total;
}

// Each row as a record: its whole columns on one line, then "HEADING: cell"
// for every other cell with text, wrapped under its value.
std::string render_stacked(const std::vector<std::vector<std::string>>& rows,
                           const std::vector<std::size_t>& whole, const std::string& indent,
                           std::size_t width) {
  std::string out;
  const std::vector<std::string>& header = rows.front();
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& row = rows[r];
    std::string first = indent;
    for (std::size_t column : whole) {
      if (column < row.size() && !row[column].empty()) first += row[column] + "  ";
    }
    while (!first.empty() && first.back() == ' ') first.pop_back();
    out += first + '\n';
    for (std::size_t i = 0; i < row.size() && i < header.size(); ++i) {
      bool is_whole = std::find(whole.begin(), whole.end(), i) != whole.end();
      if (is_whole || row[i].empty()) continue;
      std::string prefix = fmt::format("{}    {}: ", indent, header[i]);
      out += wrap_after(prefix, row[i], std::string(display_columns(prefix), ' '), width);
    }
  }
  return out;
}

}  // namespace

std::string TextTable::render(const std::string& indent, std::size_t width) const {
  // Cells hold what drivers, libraries and reports said (device names,
  // labels): escaped here, so no control byte reaches a terminal.
  std::vector<std::vector<std::string>> rows;
  rows.reserve(rows_.size() + 1);
  rows.push_back(header_);
  for (const auto& row : rows_) {
    std::vector<std::string>& shown = rows.emplace_back();
    for (const std::string& cell : row) shown.push_back(printable(cell));
  }
  std::size_t columns = 0;
  for (const auto& row : rows) columns = std::max(columns, row.size());
  std::vector<std::size_t> widths(columns, 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_columns(row[i]));
    }
  }
  std::size_t indent_width = display_columns(indent);
  if (stack_ && width > 0 && indent_width + total_width(widths) > width) {
    return render_stacked(rows, whole_, indent, width);
  }
  if (width > 0 && !widths.empty()) {
    fit_columns(widths, width > indent_width ? width - indent_width : 0, whole_);
  }

  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      std::string cell = cut_to_columns(row[i], widths[i]);
      line += cell;
      if (i + 1 < row.size()) line.append(widths[i] - display_columns(cell) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += cut_to_columns(line, width);
    out += '\n';
  }
  return out;
}

}  // namespace dlpack_usm::report
