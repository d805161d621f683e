// The consumer matrix's invalid cells, each offered for real (a USM
// allocation of the default context, exported and then broken): the facts
// the tool reads from the tensor fire the rule the cell names, and no other
// rule of warning or error severity. And the view a consumer reports,
// compared field by field where it matters.
#include <gtest/gtest.h>

#include <optional>
#include <set>

#include "exchange/live_facts.hpp"
#include "exchange_test_support.hpp"
#include "facts/memory_reader.hpp"
#include "matrix/consumer_matrix.hpp"
#include "matrix/consumer_view.hpp"
#include "matrix/offered_tensor.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::matrix {
namespace {

// The facts of an offered tensor, with what the runtime says of its pointer
// in the default context it was allocated for (a NULL pointer is nothing to
// ask the runtime about).
facts::TensorFacts offered_facts(runtime::Runtime& runtime, const OfferedTensor& offered) {
  facts::TensorFacts tensor =
      offered.versioned
          ? facts::read_managed_tensor_versioned(
                static_cast<const dlpack::DLManagedTensorVersioned*>(offered.tensor), "offered")
          : facts::read_managed_tensor(static_cast<const dlpack::DLManagedTensor*>(offered.tensor),
                                       "offered");
  if (tensor.device_type == dlpack::kDLOneAPI && tensor.data != 0) {
    runtime::ContextRef context = offered.buffer->context();
    runtime::PointerInfo info =
        runtime.query(reinterpret_cast<void*>(static_cast<std::uintptr_t>(tensor.data)), context);
    tensor.runtime = exchange::live_runtime_facts(runtime, info, context);
  }
  return tensor;
}

TEST(ConsumerMatrix, EachInvalidCellBreaksItsRuleAndNoOther) {
  std::vector<const runtime::DeviceInfo*> devices = exchange::testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  const runtime::DeviceInfo& device = *devices.front();
  std::vector<InvalidCell> cells = invalid_cells();
  ASSERT_GE(cells.size(), 9u);
  for (const InvalidCell& cell : cells) {
    ASSERT_NE(rules::find_rule(cell.rule_id), nullptr) << cell.name << ": " << cell.rule_id;
    facts::UsmKind kind = facts::UsmKind::host;
    for (facts::UsmKind candidate : {facts::UsmKind::shared, facts::UsmKind::device}) {
      if (kind_supported(device, candidate)) kind = candidate;
    }
    OfferedTensor offered = offer(runtime, device, kind, invalid_shape(cell.name));
    facts::TensorFacts tensor = offered_facts(runtime, offered);
    std::set<std::string> fired;
    for (const rules::Finding& finding : rules::evaluate(tensor)) {
      if (finding.severity != rules::Severity::info) fired.insert(finding.rule_id);
    }
    free_unconsumed(offered);
    // PoCL 5.0 finds another context's allocation in the default context.
    if (cell.name == "separate-context" && fired.empty()) continue;
    EXPECT_EQ(fired, std::set<std::string>{cell.rule_id}) << cell.name;
  }
}

TEST(ConsumerMatrix, InvalidCellsAreNamedAfterTheirRules) {
  std::set<std::string> names;
  for (const InvalidCell& cell : invalid_cells()) {
    EXPECT_TRUE(names.insert(cell.name).second) << cell.name << " twice";
  }
  for (const char* name : {"extent-overflow", "shape-negative", "data-null", "device-type-unknown",
                           "oneapi-device-id-range"}) {
    EXPECT_TRUE(names.contains(name)) << name;
  }
}

TEST(ConsumerMatrix, ABoolCellHoldsOnlyZeroAndOne) {
  std::optional<OfferedShape> bool_cell;
  std::optional<OfferedShape> int8_cell;
  for (OfferedShape& shape : dtype_axis()) {
    if (shape.name == "dtype-bool") bool_cell = shape;
    if (shape.name == "dtype-int8") int8_cell = shape;
  }
  ASSERT_TRUE(bool_cell && int8_cell);
  std::vector<std::byte> bools = offered_image(*bool_cell);
  std::vector<std::byte> bytes = offered_image(*int8_cell);
  ASSERT_EQ(bools.size(), bytes.size());
  std::set<int> values;
  for (std::size_t i = 0; i < bools.size(); ++i) {
    values.insert(static_cast<int>(bools[i]));
    // The pattern's lowest bit, so the elements still differ from their
    // neighbours (15 elements: both values appear).
    EXPECT_EQ(bools[i], bytes[i] & std::byte{1}) << i;
  }
  EXPECT_EQ(values, (std::set<int>{0, 1}));
}

// A correct report of the 3x1x5 view with an odd stride on its extent-1 axis.
DlpackUsmConsumeResult reported(const OfferedShape& shape) {
  DlpackUsmConsumeResult result{};
  result.view_reported = 1;
  result.ndim = static_cast<std::int32_t>(shape.layout.shape.size());
  for (std::size_t k = 0; k < shape.layout.shape.size(); ++k) {
    result.shape[k] = shape.layout.shape[k];
    result.strides[k] = shape.layout.strides[k];
  }
  result.dtype_code = shape.dtype.code;
  result.dtype_bits = shape.dtype.bits;
  result.dtype_lanes = shape.dtype.lanes;
  result.device_type = dlpack::kDLOneAPI;
  result.device_id = 0;
  return result;
}

OfferedShape layout_cell(const std::string& name) {
  for (OfferedShape& shape : layout_axis()) {
    if (shape.name == name) return shape;
  }
  ADD_FAILURE() << "no layout cell " << name;
  return {};
}

TEST(ConsumerView, NamesTheFirstFieldThatDiffers) {
  OfferedShape shape = layout_cell("extent-1-strides");
  DlpackUsmConsumeResult result = reported(shape);
  EXPECT_EQ(first_view_difference(result, shape, 0), std::nullopt);
  result.strides[1] = 5;  // any stride on an extent-1 axis is the same view
  EXPECT_EQ(first_view_difference(result, shape, 0), std::nullopt);
  EXPECT_EQ(first_view_difference(result, shape, 1).value_or(""),
            "device is (14, 0), the tensor offered is on (kDLOneAPI, 1)");
  result.dtype_code = dlpack::kDLInt;
  EXPECT_EQ(first_view_difference(result, shape, 0).value_or(""),
            "dtype is int32, the tensor offered is float32");
  result.strides[2] = 2;
  EXPECT_EQ(first_view_difference(result, shape, 0).value_or(""),
            "strides[2] is 2, the tensor offered has 1");
  result.ndim = 2;
  EXPECT_EQ(first_view_difference(result, shape, 0).value_or(""),
            "ndim is 2, the tensor offered has 3");
}

TEST(ConsumerView, StridesOfASize0TensorDoNotMatter) {
  OfferedShape shape = layout_cell("size0-strides");
  DlpackUsmConsumeResult result = reported(shape);
  result.strides[0] = 5;
  result.strides[1] = 1;
  EXPECT_EQ(first_view_difference(result, shape, 0), std::nullopt);
  result.shape[0] = 1;
  EXPECT_EQ(first_view_difference(result, shape, 0).value_or(""),
            "shape[0] is 1, the tensor offered has 0");
}

}  // namespace
}  // namespace dlpack_usm::matrix
