// The style sheet and the script of the HTML matrix page (matrix_html.hpp),
// inlined into every page so that it needs nothing from the network.
#pragma once

#include <string_view>

namespace dlpack_usm::compat {

// The page's layout, sticky headers, filters and tooltip (the outcomes'
// colours are written by matrix_html.cpp from matrix_outcomes.hpp).
extern const std::string_view kMatrixPageStyle;
// Filters, folding, tooltips. It reads the page's DOM only, writes text with
// textContent, and keeps the filters in location.hash (so a filtered view
// is a link: #direction=consumer&outcome=crash).
extern const std::string_view kMatrixPageScript;

}  // namespace dlpack_usm::compat
