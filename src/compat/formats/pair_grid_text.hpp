// The pairwise grid in the text and Markdown forms of `report matrix`: the
// grid (a row per producer, a column per consumer, each cell the share of
// tensors that worked, were declined and failed), then a line per library
// with the defects found and their repro. The HTML page adds the list of
// every handoff (pair_grid_html.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "compat/pair_grid.hpp"

namespace dlpack_usm::compat {

// "" for a grid with no handoff.
std::string pair_grid_text(const PairGrid& grid, std::size_t width);
std::string pair_grid_markdown(const PairGrid& grid);

// "as producer 3/3 work; as consumer 1 of 4 fails; defects: 1": a
// library's line without its defects' list.
std::string pair_library_line(const PairLibrary& library);
// "DLP-X: message (numpy 2.4.6 to dpnp 0.20.0, c-order); repro: ...".
std::string pair_defect_text(const PairCase& handed);

}  // namespace dlpack_usm::compat
