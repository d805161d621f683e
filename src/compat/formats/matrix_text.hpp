// `report matrix --format text`: the compatibility matrix as aligned plain
// text for a terminal — the libraries and their inputs, the legend, one
// table of every row (folded rows left out and counted), and the numbered
// notes with a repro each. Every string a report gave is escaped for the
// terminal (common/printable.hpp).
#pragma once

#include <string>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

std::string matrix_to_text(const CompatibilityMatrix& matrix, const MatrixOptions& options);

}  // namespace dlpack_usm::compat
