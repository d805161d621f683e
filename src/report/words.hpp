// Words of text reports that more than one report needs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dlpack_usm::report {

// "1 error", "3 errors": a count with its noun, plural where it is not one.
inline std::string plural(std::size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

}  // namespace dlpack_usm::report
