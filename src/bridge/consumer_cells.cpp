#include "bridge/consumer_cells.hpp"

#include "rules/rule.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "suite/live_matrix.hpp"

namespace dlpack_usm::bridge {
namespace {

using facts::UsmKind;
using nlohmann::ordered_json;
using suite::OfferedShape;

// The kinds in the order the C++ check picks the first one a device has.
constexpr UsmKind kFirstKindOrder[] = {UsmKind::device, UsmKind::shared, UsmKind::host};

ordered_json cell_json(const OfferedShape& shape, std::string_view axis, bool valid) {
  ordered_json features_by_kind = ordered_json::object();
  if (axis == "version") {
    for (UsmKind kind : suite::kLiveKinds) {
      features_by_kind[facts::to_string(kind)] = suite::features_of(shape, kind);
    }
  }
  return {
      {"name", shape.name},
      {"axis", axis},
      {"valid", valid},
      {"dtype", dl::dtype_display(shape.dtype)},
      {"shape", shape.layout.shape},
      {"strides", shape.explicit_strides ? ordered_json(shape.layout.strides) : nullptr},
      {"byte_offset", shape.layout.byte_offset},
      {"version", dl::to_string(shape.version)},
      {"flags", shape.flags},
      {"null_data", shape.null_data},
      {"features", valid ? suite::features_of(shape, std::nullopt) : std::vector<std::string>{}},
      {"features_by_kind", features_by_kind}};
}

}  // namespace

runtime::Runtime& offer_runtime(std::string* name) {
  std::string why;
  runtime::Runtime* sycl = runtime::sycl_runtime_or_null(&why);
  if (name != nullptr) *name = sycl != nullptr ? "sycl" : "opencl";
  return sycl != nullptr ? *sycl : runtime::opencl_runtime();
}

ordered_json consumer_matrix_json() {
  std::string runtime_name;
  runtime::Runtime& runtime = offer_runtime(&runtime_name);
  ordered_json devices = ordered_json::array();
  for (const runtime::PlatformInfo& platform : runtime.inventory().platforms) {
    for (const runtime::DeviceInfo& root : platform.devices) {
      if (!root.usm) continue;
      ordered_json kinds = ordered_json::array();
      for (UsmKind kind : suite::kLiveKinds) {
        if (suite::kind_supported(root, kind)) kinds.push_back(facts::to_string(kind));
      }
      ordered_json first = nullptr;
      for (UsmKind kind : kFirstKindOrder) {
        if (suite::kind_supported(root, kind)) {
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
  }
  ordered_json cells = ordered_json::array();
  for (const OfferedShape& shape : suite::version_axis()) {
    cells.push_back(cell_json(shape, "version", true));
  }
  for (const OfferedShape& shape : suite::dtype_axis()) {
    cells.push_back(cell_json(shape, "dtype", true));
  }
  for (const OfferedShape& shape : suite::layout_axis()) {
    cells.push_back(cell_json(shape, "layout", true));
  }
  for (const std::string& name : suite::invalid_case_names()) {
    cells.push_back(cell_json(suite::invalid_shape(name), "invalid", false));
  }
  // The severities of the consumer rules, from the one catalog, for the
  // findings the Python consumer checks make.
  ordered_json severities = ordered_json::object();
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    if (rule.id.starts_with("DLP-CONSUMER-")) {
      severities[std::string(rule.id)] = rules::to_string(rule.severity);
    }
  }
  return {{"runtime", runtime_name},
          {"devices", devices},
          {"cells", cells},
          {"severities", severities}};
}

OfferedShape find_cell(const std::string& name, bool& valid) {
  valid = true;
  for (auto axis : {suite::version_axis, suite::dtype_axis, suite::layout_axis}) {
    for (OfferedShape& shape : axis()) {
      if (shape.name == name) return shape;
    }
  }
  for (const std::string& invalid : suite::invalid_case_names()) {
    if (invalid == name) {
      valid = false;
      return suite::invalid_shape(name);
    }
  }
  fail_usage(fmt::format("'{}' is no cell of the consumer matrix", name),
             "list the cells with dlpack_usm_bridge_consumer_matrix");
}

}  // namespace dlpack_usm::bridge
