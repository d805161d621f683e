// A shape or strides as the reports print them: "[3, 5]", or "NULL" where the
// tensor has none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlpack_usm::report {

inline std::string dims_text(const std::optional<std::vector<std::int64_t>>& dims) {
  return dims ? fmt::format("[{}]", fmt::join(*dims, ", ")) : "NULL";
}

}  // namespace dlpack_usm::report
