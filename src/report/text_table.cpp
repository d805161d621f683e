#include "report/text_table.hpp"

#include <algorithm>

#include "common/printable.hpp"

namespace dlpack_usm::report {

std::string TextTable::render(const std::string& indent) const {
  // Cells hold what drivers, libraries and reports said (device names,
  // labels): escaped here, so no control byte reaches a terminal.
  std::vector<std::vector<std::string>> rows;
  rows.reserve(rows_.size());
  for (const auto& row : rows_) {
    std::vector<std::string>& shown = rows.emplace_back();
    for (const std::string& cell : row) shown.push_back(printable(cell));
  }
  std::size_t columns = header_.size();
  for (const auto& row : rows) columns = std::max(columns, row.size());
  std::vector<std::size_t> widths(columns, 0);
  auto measure = [&widths](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  };
  measure(header_);
  for (const auto& row : rows) measure(row);

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(header_);
  for (const auto& row : rows) emit(row);
  return out;
}

}  // namespace dlpack_usm::report
