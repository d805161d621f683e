#include "suite/cases/consumer/consumer_layout.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "matrix/live_matrix.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using matrix::OfferedShape;

// The invalid cells that break a rule of USM pointers or of kDLOneAPI
// device ids: plain host memory has no form of them.
constexpr std::array<std::string_view, 3> kUsmOnlyCells{"separate-context", "unknown-pointer",
                                                        "oneapi-device-id-range"};

// "host-usm", or "cpu" for plain host memory.
std::string memory_of(UsmKind kind) {
  return kind == UsmKind::unknown ? "cpu" : fmt::format("{}-usm", facts::to_string(kind));
}

ConsumerCell cell_of(OfferedShape shape, UsmKind kind, std::string group,
                     std::vector<std::string> features, MatrixLine line,
                     std::string broken_rule = {}) {
  CasePlace place{Direction::consumer, memory_of(kind), {std::move(line)}, std::nullopt};
  return {std::move(shape),      kind, std::move(group), std::move(features), std::move(place),
          std::move(broken_rule)};
}

// The newest version stands for its memory (the usm-kind axis, or the
// memory axis for host memory); the others are the version axis, as they
// are on the first kind and with the kind named on the others.
MatrixLine version_line(const OfferedShape& shape, UsmKind kind, bool first) {
  std::string version = dlpack::to_string(shape.version);
  if (shape.version == dlpack::kModelRelease) {
    return kind == UsmKind::unknown ? MatrixLine{"memory", "cpu"}
                                    : MatrixLine{"usm-kind", memory_of(kind)};
  }
  return {"version", first ? version : fmt::format("{}/{}", version, memory_of(kind))};
}

// The dtype and layout axes on `kind`.
void add_axis_cells(UsmKind kind, const std::string& group, std::vector<ConsumerCell>& cells) {
  std::vector<OfferedShape> shapes = matrix::dtype_axis();
  for (OfferedShape& shape : matrix::layout_axis()) shapes.push_back(std::move(shape));
  for (OfferedShape& shape : shapes) {
    bool dtype = shape.name.starts_with("dtype-");
    MatrixLine line{dtype ? "dtype" : "layout", dtype ? shape.name.substr(6) : shape.name};
    std::vector<std::string> features = matrix::features_of(shape, std::nullopt);
    cells.push_back(cell_of(std::move(shape), kind, group, std::move(features), std::move(line)));
  }
}

void add_invalid_cells(UsmKind kind, std::vector<ConsumerCell>& cells) {
  for (const matrix::InvalidCell& invalid : matrix::invalid_cells()) {
    bool usm_only =
        std::find(kUsmOnlyCells.begin(), kUsmOnlyCells.end(), invalid.name) != kUsmOnlyCells.end();
    if (kind == UsmKind::unknown && usm_only) continue;
    cells.push_back(cell_of(matrix::invalid_shape(invalid.name), kind, "invalid", {},
                            {"invalid", invalid.name}, invalid.rule_id));
  }
}

}  // namespace

std::string ConsumerCell::memory_name() const {
  return kind == UsmKind::unknown ? "cpu" : facts::to_string(kind);
}

std::optional<facts::UsmKind> first_consumer_kind(const runtime::DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (matrix::kind_supported(device, kind)) return kind;
  }
  return std::nullopt;
}

std::vector<ConsumerCell> usm_consumer_cells(const runtime::DeviceInfo& root) {
  std::vector<ConsumerCell> cells;
  std::optional<UsmKind> first = first_consumer_kind(root);
  if (!first) return cells;
  for (UsmKind kind : matrix::kLiveKinds) {
    if (!matrix::kind_supported(root, kind)) continue;
    for (OfferedShape& shape : matrix::version_axis()) {
      MatrixLine line = version_line(shape, kind, kind == *first);
      std::vector<std::string> features = matrix::features_of(shape, kind);
      cells.push_back(cell_of(std::move(shape), kind, facts::to_string(kind), std::move(features),
                              std::move(line)));
    }
  }
  add_axis_cells(*first, facts::to_string(*first), cells);
  add_invalid_cells(*first, cells);
  return cells;
}

std::vector<ConsumerCell> host_consumer_cells() {
  std::vector<ConsumerCell> cells;
  for (OfferedShape& shape : matrix::version_axis()) {
    MatrixLine line = version_line(shape, UsmKind::unknown, true);
    std::vector<std::string> features = matrix::features_of(shape, std::nullopt);
    features.emplace_back("cpu");
    std::sort(features.begin(), features.end());
    features.erase(std::unique(features.begin(), features.end()), features.end());
    cells.push_back(
        cell_of(std::move(shape), UsmKind::unknown, "cpu", std::move(features), std::move(line)));
  }
  add_axis_cells(UsmKind::unknown, "cpu", cells);
  add_invalid_cells(UsmKind::unknown, cells);
  return cells;
}

}  // namespace dlpack_usm::suite
