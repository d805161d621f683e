// `report matrix --format html`: the compatibility matrix as one
// self-contained page (no network, no external asset: its Content Security
// Policy allows nothing else). Without JavaScript it is a real <table> with
// the symbols, a legend and a title per cell naming the cell's reason,
// worst finding and repro; its script adds filters (direction, axis,
// memory, outcome; kept in the URL's #fragment), collapses the rows where
// every library agrees, and shows a richer tooltip on hover or focus.
// Every string a report gave is escaped (xml_escape), and the script puts
// text into the page with textContent only.
#pragma once

#include <string>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

std::string matrix_to_html(const CompatibilityMatrix& matrix);

}  // namespace dlpack_usm::compat
