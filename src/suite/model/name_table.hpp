// Enums the reports spell by name: a table of (value, name) pairs read both
// ways, so that a value and its spelling live in one row.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace dlpack_usm::suite {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

// The name of `value`; `fallback` where the table lacks it.
template <typename Enum, std::size_t N>
const char* name_in(const NameTable<Enum, N>& names, Enum value, const char* fallback = "") {
  for (const auto& [known, name] : names) {
    if (known == value) return name;
  }
  return fallback;
}

// The value named `text`; nullopt for a name the table lacks.
template <typename Enum, std::size_t N>
std::optional<Enum> value_in(const NameTable<Enum, N>& names, std::string_view text) {
  for (const auto& [known, name] : names) {
    if (text == name) return known;
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::suite
