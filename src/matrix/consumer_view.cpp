#include "matrix/consumer_view.hpp"

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

#include "dlpack/names.hpp"

namespace dlpack_usm::matrix {

std::optional<std::string> first_view_difference(const DlpackUsmConsumeResult& result,
                                                 const OfferedShape& shape,
                                                 std::int32_t device_id) {
  const exchange::Layout& layout = shape.layout;
  auto ndim = static_cast<std::int32_t>(layout.shape.size());
  if (result.ndim != ndim) {
    return fmt::format("ndim is {}, the tensor offered has {}", result.ndim, ndim);
  }
  // Only the axes the struct has room for were reported.
  std::size_t reported = std::min<std::size_t>(layout.shape.size(), DLPACK_USM_VIEW_MAX_DIMS);
  bool empty = std::find(layout.shape.begin(), layout.shape.end(), 0) != layout.shape.end();
  for (std::size_t k = 0; k < reported; ++k) {
    if (result.shape[k] != layout.shape[k]) {
      return fmt::format("shape[{}] is {}, the tensor offered has {}", k, result.shape[k],
                         layout.shape[k]);
    }
  }
  // The layout holds the compact strides where the tensor was offered with
  // NULL ones (before 1.2), which is what NULL means there.
  for (std::size_t k = 0; k < reported && !empty; ++k) {
    if (layout.shape[k] != 1 && result.strides[k] != layout.strides[k]) {
      return fmt::format("strides[{}] is {}, the tensor offered has {}", k, result.strides[k],
                         layout.strides[k]);
    }
  }
  dlpack::DLDataType seen{result.dtype_code, result.dtype_bits, result.dtype_lanes};
  if (seen.code != shape.dtype.code || seen.bits != shape.dtype.bits ||
      seen.lanes != shape.dtype.lanes) {
    return fmt::format("dtype is {}, the tensor offered is {}", dlpack::dtype_display(seen),
                       dlpack::dtype_display(shape.dtype));
  }
  if (result.device_type != dlpack::kDLOneAPI || result.device_id != device_id) {
    return fmt::format("device is ({}, {}), the tensor offered is on (kDLOneAPI, {})",
                       result.device_type, result.device_id, device_id);
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::matrix
