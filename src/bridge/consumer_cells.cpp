#include "bridge/consumer_cells.hpp"

#include "rules/rule.hpp"

#include <fmt/format.h>

#include "bridge/plugin_repro.hpp"
#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "matrix/consumer_verdict.hpp"
#include "matrix/live_matrix.hpp"
#include "report/rules_report.hpp"
#include "rules/rule_ids.hpp"
#include "runtime/selection.hpp"

namespace dlpack_usm::bridge {
namespace {

using facts::UsmKind;
using matrix::OfferedShape;
using nlohmann::ordered_json;

// The kinds in the order the C++ check picks the first one a device has.
constexpr UsmKind kFirstKindOrder[] = {UsmKind::device, UsmKind::shared, UsmKind::host};

ordered_json cell_json(const OfferedShape& shape, std::string_view axis, bool valid,
                       const std::string& broken_rule = {}) {
  std::optional<OfferedShape> twin = valid ? matrix::compact_twin(shape) : std::nullopt;
  ordered_json features_by_kind = ordered_json::object();
  if (axis == "version") {
    for (UsmKind kind : matrix::kLiveKinds) {
      features_by_kind[facts::to_string(kind)] = matrix::features_of(shape, kind);
    }
  }
  return {
      {"name", shape.name},
      {"axis", axis},
      {"valid", valid},
      {"dtype", dlpack::dtype_display(shape.dtype)},
      {"shape", shape.layout.shape},
      {"strides", shape.explicit_strides ? ordered_json(shape.layout.strides) : nullptr},
      {"byte_offset", shape.layout.byte_offset},
      {"version", dlpack::to_string(shape.version)},
      {"flags", shape.flags},
      {"null_data", shape.null_data},
      {"features", valid ? matrix::features_of(shape, std::nullopt) : std::vector<std::string>{}},
      {"features_by_kind", features_by_kind},
      {"twin", twin ? ordered_json(twin->name) : ordered_json(nullptr)},
      {"broken_rule", broken_rule},
      {"unknown_major", broken_rule == rules::ids::kVersionMajor},
      {"null_deleter", shape.null_deleter}};
}

ordered_json classes_json() {
  ordered_json classes = ordered_json::array();
  for (const matrix::ProfileClassInfo& info : matrix::profile_classes()) {
    classes.push_back(
        {{"name", info.name}, {"symbol", std::string(1, info.symbol)}, {"meaning", info.meaning}});
  }
  return classes;
}

}  // namespace

runtime::Runtime& offer_runtime(std::string* name) {
  // A C program that asked for a plugin's host table is offered tensors on
  // that table's runtime: a plugin reads them in those contexts.
  if (runtime::Runtime* host_runtime = plugin_host_runtime(name); host_runtime != nullptr) {
    return *host_runtime;
  }
  runtime::SelectedRuntime found = runtime::find_runtime(
      {runtime::RuntimeChoice::automatic, runtime::LibrariesUnderTest::sycl_handles});
  if (name != nullptr) *name = found.name;
  return *found.runtime;
}

ordered_json consumer_matrix_json() {
  std::string runtime_name;
  runtime::Runtime& runtime = offer_runtime(&runtime_name);
  ordered_json devices = ordered_json::array();
  for (const auto& [platform, root] : runtime.inventory().roots()) {
    if (!root.usm) continue;
    ordered_json kinds = ordered_json::array();
    for (UsmKind kind : matrix::kLiveKinds) {
      if (matrix::kind_supported(root, kind)) kinds.push_back(facts::to_string(kind));
    }
    ordered_json first = nullptr;
    for (UsmKind kind : kFirstKindOrder) {
      if (matrix::kind_supported(root, kind)) {
        first = facts::to_string(kind);
        break;
      }
    }
    if (first.is_null()) continue;
    devices.push_back({{"name", root.selector_name},
                       {"device_id", root.dlpack_device_id()},
                       {"kinds", kinds},
                       {"first_kind", first}});
  }
  ordered_json cells = ordered_json::array();
  for (const OfferedShape& shape : matrix::version_axis()) {
    cells.push_back(cell_json(shape, "version", true));
  }
  for (const OfferedShape& shape : matrix::dtype_axis()) {
    cells.push_back(cell_json(shape, "dtype", true));
  }
  for (const OfferedShape& shape : matrix::layout_axis()) {
    cells.push_back(cell_json(shape, "layout", true));
  }
  for (const matrix::InvalidCell& cell : matrix::invalid_cells()) {
    cells.push_back(cell_json(matrix::invalid_shape(cell.name), "invalid", false, cell.rule_id));
  }
  return {{"runtime", runtime_name},
          {"devices", devices},
          {"cells", cells},
          {"classes", classes_json()}};
}

ordered_json consumer_verdict_json(const std::string& observation) {
  nlohmann::json parsed = nlohmann::json::parse(observation, nullptr, false);
  if (parsed.is_discarded()) {
    fail_usage("the consumer observation is not JSON",
               "pass one JSON object (bridge.h, dlpack_usm_bridge_consumer_verdict)");
  }
  return matrix::verdict_to_json(matrix::judge_consumer(matrix::observation_from_json(parsed)));
}

ordered_json rules_json() {
  std::vector<const rules::RuleInfo*> all;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) all.push_back(&rule);
  return report::rules_to_json(all);
}

OfferedShape find_cell(const std::string& name, bool& valid) {
  constexpr std::string_view kTwinSuffix = "~compact";
  if (name.ends_with(kTwinSuffix)) {
    OfferedShape original = find_cell(name.substr(0, name.size() - kTwinSuffix.size()), valid);
    std::optional<OfferedShape> twin = valid ? matrix::compact_twin(original) : std::nullopt;
    if (!twin) {
      fail_usage(
          fmt::format("'{}' is no cell of the consumer matrix: its cell has no compact twin", name),
          "list the cells and their twins with dlpack_usm_bridge_consumer_matrix");
    }
    return *twin;
  }
  valid = true;
  for (auto axis : {matrix::version_axis, matrix::dtype_axis, matrix::layout_axis}) {
    for (OfferedShape& shape : axis()) {
      if (shape.name == name) return shape;
    }
  }
  for (const std::string& invalid : matrix::invalid_case_names()) {
    if (invalid == name) {
      valid = false;
      return matrix::invalid_shape(name);
    }
  }
  fail_usage(fmt::format("'{}' is no cell of the consumer matrix", name),
             "list the cells with dlpack_usm_bridge_consumer_matrix");
}

}  // namespace dlpack_usm::bridge
