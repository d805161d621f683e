// One line per library of the matrix: how many cells of each direction, how
// many of them are good, declined, warn and fail, and the rules behind the
// warnings and failures — the summary table the README shows.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

struct ColumnSummary {
  std::size_t producer_cells = 0;
  std::size_t consumer_cells = 0;
  std::size_t good = 0;      // accepted, emitted, refused: the gate passes without a word
  std::size_t declined = 0;  // declined or not applicable, passing
  std::size_t warns = 0;
  std::size_t fails = 0;
  // The worst finding's rule (the outcome where a cell has none) of the
  // cells that warn and of those that fail, with how many cells each.
  std::map<std::string, std::size_t> warning_rules;
  std::map<std::string, std::size_t> failing_rules;
};

// One per column, in the matrix's order.
std::vector<ColumnSummary> summarize_columns(const CompatibilityMatrix& matrix);

// "DLP-PLUGIN-CRASH 10, DLP-CONSUMER-CHECKSUM 4": most cells first.
std::string rule_counts(const std::map<std::string, std::size_t>& rules);

}  // namespace dlpack_usm::compat
