// The tensors a consumer is offered, generated from the tool's dtype table
// and the layouts real importers get wrong: every dtype, ndim 0..8 and 40,
// stride 0, negative strides, byte_offset on scalars and legacy views, size-0
// and extent-1 axes with odd strides, READ_ONLY, IS_COPIED, every version;
// and the invalid tensors, each breaking one rule. `check --consumer` and the
// Python package's consumer checks (through the bridge) offer the same cells.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlpack/abi.hpp"
#include "dlpack/names.hpp"
#include "exchange/layout.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::matrix {

// One tensor of the matrix, described: a cell of the dtype, layout or
// version x kind axis (the others at their defaults: float32, 3x5 C order,
// DLPack 1.3), or an invalid tensor (broken after export by `name`).
struct OfferedShape {
  std::string name;
  dlpack::DLDataType dtype{dlpack::kDLFloat, 32, 1};
  exchange::Layout layout;
  bool explicit_strides = true;  // false: NULL strides where the version allows them
  dlpack::Release version = dlpack::kModelRelease;
  std::uint64_t flags = 0;  // set on the versioned tensor after export
  bool null_data = false;
  // The deleter offered is NULL (dlpack.h: "It can be NULL"): the tool keeps
  // ownership and frees the tensor after consume.
  bool null_deleter = false;
};

// An invalid tensor of the matrix: its name and the rule of the tool's
// catalog it breaks (and no other rule of warning or error severity).
struct InvalidCell {
  std::string name;
  std::string rule_id;
};

std::uint64_t element_bytes_of(const OfferedShape& shape);

// The allocation's bytes as offered: the tool's pattern at every element's
// position and the gap filler between them, except that a bool element
// holds 0 or 1 (its pattern byte's lowest bit), the only values a bool
// may hold, so that a consumer normalising bools reads what was offered.
std::vector<std::byte> offered_image(const OfferedShape& shape);

// The dtype axis: every dtype of the tool's table, 3x5 C order.
std::vector<OfferedShape> dtype_axis();
// The layout axis, on float32.
std::vector<OfferedShape> layout_axis();
// The version axis: legacy, 1.0 to 1.3, NULL strides where allowed.
std::vector<OfferedShape> version_axis();
// The invalid tensors, and the tensor each starts from (it is broken after
// export by offer(), through break_after_export() where the struct alone is
// broken).
std::vector<InvalidCell> invalid_cells();
std::vector<std::string> invalid_case_names();
OfferedShape invalid_shape(const std::string& name);
// Breaks an exported tensor's body the way invalid cell `name` needs, where
// the struct alone is broken (not the version, strides or allocation, which
// offer() handles). `root_device_count` is the number of USM-capable and
// other root devices, for a device_id out of range.
void break_after_export(const std::string& name, dlpack::DLTensor& body,
                        std::int32_t root_device_count);

// The compact twin of a valid cell: the same shape, dtype and elements
// described canonically — compact strides on axes of extent 1 and on a
// size-0 tensor, explicit strides where the cell has NULL ones, non-NULL
// data for size 0 — named "<cell>~compact"; nullopt where the cell is
// canonical already. A consumer that declines a cell and accepts its twin
// judges strides or pointers that address nothing.
std::optional<OfferedShape> compact_twin(const OfferedShape& shape);

// What a valid case asks of the consumer, for --require: its name, its
// dtype, its USM kind where the case stands for the kind (the version axis),
// and the family of layouts it belongs to.
std::vector<std::string> features_of(const OfferedShape& shape, std::optional<facts::UsmKind> kind);

}  // namespace dlpack_usm::matrix
