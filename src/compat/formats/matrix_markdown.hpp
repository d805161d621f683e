// `report matrix --format md`: the compatibility matrix as GitHub-flavoured
// Markdown — the libraries, the legend, a table per direction and axis
// (rows where every library agrees folded into a <details> block below it),
// and a footnote per distinct note with a repro. `--format md-summary` is
// the one table of matrix_summary.hpp the README shows. Every string a
// report gave is escaped: as Markdown text, it cannot open a link, a tag or
// a table cell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

std::string matrix_to_markdown(const CompatibilityMatrix& matrix, const MatrixOptions& options);
std::string matrix_summary_to_markdown(const CompatibilityMatrix& matrix);

// One row of a GFM table: "| a | b |" and a newline.
std::string matrix_markdown_row(const std::vector<std::string>& cells);
// `text` as literal Markdown text (one line; markup and HTML escaped).
std::string matrix_markdown_text(std::string_view text);
// `text` as an inline code span; `in_table` escapes the pipes GFM tables
// would split the cell at.
std::string markdown_code(std::string_view text, bool in_table);

}  // namespace dlpack_usm::compat
