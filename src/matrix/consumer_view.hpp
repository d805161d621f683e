// What a consumer of plugin ABI 3 says it imported, set against what the
// tool offered: the first field of the view that differs, where it matters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dlpack_usm/plugin.h"
#include "matrix/consumer_matrix.hpp"

namespace dlpack_usm::matrix {

// The first field of the reported view that differs from the tensor offered
// (`shape` on the root device `device_id`), described for a message
// ("shape[1] is 5, the tensor offered has 1"); nullopt when they agree.
// Strides are compared only where they decide a position: not on an axis
// of extent 1 and not at all on a tensor without elements; NULL strides
// offered below DLPack 1.2 mean the compact row-major ones.
std::optional<std::string> first_view_difference(const DlpackUsmConsumeResult& result,
                                                 const OfferedShape& shape, std::int32_t device_id);

}  // namespace dlpack_usm::matrix
