#include "suite/model/case_place.hpp"

#include <fmt/format.h>

#include "suite/model/name_table.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr NameTable<Direction, 3> kDirectionNames{{
    {Direction::none, ""},
    {Direction::producer, "producer"},
    {Direction::consumer, "consumer"},
}};

}  // namespace

const char* to_string(Direction direction) {
  return name_in(kDirectionNames, direction);
}

std::optional<Direction> parse_direction(std::string_view text) {
  return value_in(kDirectionNames, text);
}

std::string usm_memory(facts::UsmKind kind) {
  return fmt::format("{}-usm", facts::to_string(kind));
}

}  // namespace dlpack_usm::suite
