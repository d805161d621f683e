// The pairwise grid on the HTML page of `report matrix`, before the cells:
// a table with a row per producer and a column per consumer, each cell the
// share of tensors that worked, were declined and failed (coloured, and a
// link to the list of its handoffs), a filter that keeps the pairs with a
// failure, a line per library (what it emits, what it accepts, the defects
// found with their repro), then every pair's handoffs.
#pragma once

#include <string>
#include <string_view>

#include "compat/pair_grid.hpp"

namespace dlpack_usm::compat {

// The section with its style; "" for a grid with no handoff.
std::string pair_grid_html(const PairGrid& grid);
// Its script, for the page's one <script> element; "" for no handoff.
std::string_view pair_grid_script(const PairGrid& grid);

}  // namespace dlpack_usm::compat
