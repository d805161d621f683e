#include "compat/matrix_summary.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compat/matrix_outcomes.hpp"

namespace dlpack_usm::compat {
namespace {

void count_cell(const ProfileCell& cell, ColumnSummary& summary) {
  (cell.direction == "producer" ? summary.producer_cells : summary.consumer_cells)++;
  std::string rule = cell.rule.empty() ? cell.outcome : cell.rule;
  switch (cell_gate(cell.status)) {
    case CellGate::fails:
      ++summary.fails;
      ++summary.failing_rules[rule];
      return;
    case CellGate::warns:
      ++summary.warns;
      ++summary.warning_rules[rule];
      return;
    default:
      break;
  }
  bool good = cell.outcome == "accepted" || cell.outcome == "emitted" || cell.outcome == "refused";
  (good ? summary.good : summary.declined)++;
}

}  // namespace

std::vector<ColumnSummary> summarize_columns(const CompatibilityMatrix& matrix) {
  std::vector<ColumnSummary> summaries(matrix.columns.size());
  for (const MatrixRow& row : matrix.rows) {
    for (std::size_t column = 0; column < row.cells.size(); ++column) {
      if (row.cells[column]) count_cell(*row.cells[column], summaries[column]);
    }
  }
  return summaries;
}

std::string rule_counts(const std::map<std::string, std::size_t>& rules) {
  std::vector<std::pair<std::string, std::size_t>> sorted(rules.begin(), rules.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> parts;
  for (const auto& [rule, cells] : sorted) parts.push_back(fmt::format("{} {}", rule, cells));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace dlpack_usm::compat
