#include "facts/reader_notes.hpp"

#include <fmt/format.h>

#include "dlpack/abi.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

std::string note_ndim_beyond_limit(std::int64_t ndim) {
  return fmt::format(
      "ndim {} exceeds the reader's limit of {} dimensions; shape and strides were not read", ndim,
      kMaxReadableDims);
}

std::string note_ndim_negative(std::int64_t ndim) {
  return fmt::format("ndim {} is negative; shape and strides were not read", ndim);
}

std::string note_unknown_major(std::uint32_t major) {
  return fmt::format(
      "version.major {} differs from {}: only version, manager_ctx, deleter and flags were read, "
      "as dlpack.h requires",
      major, dlpack::kModelMajor);
}

}  // namespace dlpack_usm::facts
