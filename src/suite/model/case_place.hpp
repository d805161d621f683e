// Where a case sits in the compatibility matrix, as typed fields its source
// sets when it plans the case: the direction of the exchange, the memory,
// and the rows (an axis and a value) it lies on. The record of the case
// carries it, so that every reader of a report (report merge, report
// matrix) takes the place from these fields and never from the case's id,
// which stays opaque.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::suite {

// Which side of an exchange the library under test was on; none for the
// tool's own cases (vectors, round trips), which measure no library.
enum class Direction { none, producer, consumer };

const char* to_string(Direction direction);
std::optional<Direction> parse_direction(std::string_view text);

// One row of the matrix: its axis ("dtype", "layout", "version",
// "usm-kind", "invalid", "request", "exchange-api", ...) and the value on it.
struct MatrixLine {
  std::string axis;
  std::string value;

  bool operator==(const MatrixLine&) const = default;
};

struct CasePlace {
  Direction direction = Direction::none;
  // "cpu" (kDLCPU host memory), "host-usm", "device-usm", "shared-usm",
  // "cuda", "cuda-host", "cuda-managed", or "" where the case has none.
  std::string memory;
  // The rows the case lies on: one for most; several for the tensor where
  // the lines of a crossed matrix meet (float32, C order, the newest
  // version lies on the dtype, layout and version lines).
  std::vector<MatrixLine> lines;
  // A crossed tensor on no line of its own: shown on this row only when it
  // does not pass, so that a failure off the lines is never lost.
  std::optional<MatrixLine> off_line;

  bool empty() const { return direction == Direction::none; }
  bool operator==(const CasePlace&) const = default;
};

// The memory of a USM kind as a place names it: "host-usm", "device-usm",
// "shared-usm".
std::string usm_memory(facts::UsmKind kind);

}  // namespace dlpack_usm::suite
