#include "matrix/consumer_matrix.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "dlpack/names.hpp"
#include "exchange/pattern.hpp"
#include "facts/element_size.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;

// The invalid tensors a consumer must refuse, each breaking one rule of the
// catalog: those offer() breaks through the version, the strides or the
// allocation, named as they always were (another context's pointer is one
// the default context does not know) ...
constexpr std::array<std::pair<const char*, std::string_view>, 4> kNamedInvalidCells{{
    {"major-version-2", rules::ids::kVersionMajor},
    {"separate-context", rules::ids::kOneapiUsmUnknown},
    {"unknown-pointer", rules::ids::kOneapiUsmUnknown},
    {"strides-null-1.2", rules::ids::kStridesNull},
}};

// ... and those where one field of the struct breaks the rule, generated
// from the rule id: the cell is named after the rule, so a new rule here is
// a new cell with no other change.
struct StructBreak {
  std::string_view rule_id;
  void (*apply)(dl::DLTensor& body, std::int32_t root_device_count);
};
constexpr std::array kStructBreaks{
    // 5 x 2^61 elements: the count fits 64 bits, its bytes do not; a product
    // taken as signed is negative.
    StructBreak{rules::ids::kExtentOverflow,
                [](dl::DLTensor& body, std::int32_t) { body.shape[0] = std::int64_t{1} << 61; }},
    StructBreak{rules::ids::kShapeNegative,
                [](dl::DLTensor& body, std::int32_t) { body.shape[0] = -3; }},
    StructBreak{rules::ids::kDataNull,
                [](dl::DLTensor& body, std::int32_t) { body.data = nullptr; }},
    // 5 and 6 are the device types no DLPack release assigns.
    StructBreak{rules::ids::kDeviceTypeUnknown,
                [](dl::DLTensor& body, std::int32_t) { body.device.device_type = 5; }},
    StructBreak{rules::ids::kOneapiDeviceIdRange,
                [](dl::DLTensor& body, std::int32_t roots) { body.device.device_id = roots; }},
};

constexpr std::string_view kRuleIdPrefix = "DLP-";

// DLP-EXTENT-OVERFLOW -> "extent-overflow".
std::string cell_name(std::string_view rule_id) {
  std::string name(rule_id.substr(rule_id.starts_with(kRuleIdPrefix) ? kRuleIdPrefix.size() : 0));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// A layout of `extents` with the given strides and byte_offset, over an
// allocation just large enough for every element (at least one element).
exchange::Layout custom_layout(std::vector<std::int64_t> extents, std::vector<std::int64_t> strides,
                               std::uint64_t byte_offset, std::uint64_t element_bytes) {
  exchange::Layout layout{std::move(extents), std::move(strides), byte_offset, 0};
  std::int64_t reach = 0;
  bool empty = false;
  for (std::size_t k = 0; k < layout.shape.size(); ++k) {
    empty |= layout.shape[k] == 0;
    if (layout.shape[k] > 0) reach += (layout.shape[k] - 1) * layout.strides[k];
  }
  layout.allocation_bytes =
      byte_offset + (empty ? 1 : static_cast<std::uint64_t>(reach) + 1) * element_bytes;
  return layout;
}

OfferedShape compact(std::string name, std::vector<std::int64_t> extents,
                     exchange::Order order = exchange::Order::c,
                     dl::DLDataType dtype = {dl::kDLFloat, 32, 1}) {
  OfferedShape shape;
  shape.name = std::move(name);
  shape.dtype = dtype;
  shape.layout = exchange::make_layout(extents, element_bytes_of(shape), order);
  return shape;
}

OfferedShape custom(std::string name, std::vector<std::int64_t> extents,
                    std::vector<std::int64_t> strides, std::uint64_t offset_elements = 0) {
  OfferedShape shape;
  shape.name = std::move(name);
  std::uint64_t bytes = element_bytes_of(shape);
  shape.layout =
      custom_layout(std::move(extents), std::move(strides), offset_elements * bytes, bytes);
  return shape;
}

// Every released dtype of the tool's table, one lane, each width its code has:
// int/uint 8-64, float 16-64, bfloat16, complex 64/128, bool, the float8
// kinds, and float6/float4 padded to a byte (IS_SUBBYTE_TYPE_PADDED).
std::vector<dl::DLDataType> matrix_dtypes() {
  std::vector<dl::DLDataType> dtypes;
  for (const dl::DtypeCodeName& code : dl::dtype_code_table()) {
    // A code no release defines yet (kDLBcomplex of main after 1.3) is not
    // offered: no consumer built against a released header knows it, and
    // the profiles compare libraries on what DLPack has released.
    if (!dl::generation_info(code.known_since).released) continue;
    std::vector<std::uint8_t> widths;
    switch (code.code) {
      case dl::kDLInt:
      case dl::kDLUInt:
        widths = {8, 16, 32, 64};
        break;
      case dl::kDLFloat:
        widths = {16, 32, 64};
        break;
      case dl::kDLBfloat:
        widths = {16};
        break;
      case dl::kDLComplex:
        widths = {64, 128};
        break;
      case dl::kDLOpaqueHandle:
        break;  // not an element type a consumer reads
      default: {
        // bool and the float8/6/4 kinds: the width parse_dtype gives the name.
        std::optional<dl::DLDataType> parsed = dl::parse_dtype(code.short_name);
        if (parsed) widths = {parsed->bits};
      }
    }
    for (std::uint8_t bits : widths) dtypes.push_back({code.code, bits, 1});
  }
  return dtypes;
}

}  // namespace

std::uint64_t element_bytes_of(const OfferedShape& shape) {
  return facts::element_storage_bytes(shape.dtype);
}

std::vector<OfferedShape> dtype_axis() {
  std::vector<OfferedShape> shapes;
  for (dl::DLDataType dtype : matrix_dtypes()) {
    OfferedShape shape = compact(fmt::format("dtype-{}", dl::dtype_display(dtype)), {3, 5},
                                 exchange::Order::c, dtype);
    if (dtype.bits % 8 != 0) shape.flags |= dl::kFlagIsSubbyteTypePadded;
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

// The layouts real consumers get wrong, on float32.
std::vector<OfferedShape> layout_axis() {
  using exchange::Order;
  std::vector<OfferedShape> shapes{
      compact("f-order", {3, 5}, Order::f),
      compact("strided", {3, 5}, Order::strided),
      compact("byte-offset", {3, 5}, Order::offset),
      compact("negative-stride", {3, 5}, Order::negative),
      // Any stride is valid on an axis of extent 1; consumers that multiply
      // it in anyway read the wrong element or leave the allocation.
      custom("extent-1-strides", {3, 1, 5}, {5, 7777, 1}),
      custom("broadcast", {3, 5}, {0, 1}),
      custom("broadcast-all", {3, 5}, {0, 0}),
      custom("size0-strides", {0, 5}, {7, 3}),
      custom("size0-zero-strides", {0, 5}, {0, 0}),
      custom("size0-null-data", {0, 5}, {5, 1}),
      custom("scalar-byte-offset", {}, {}, 3),
  };
  for (OfferedShape& shape : shapes) {
    shape.null_data = shape.name == "size0-null-data";
    // A broadcast view is offered read-only, as DLP-STRIDES-ZERO asks of a
    // producer: its elements share addresses.
    if (shape.name.rfind("broadcast", 0) == 0) shape.flags = dl::kFlagReadOnly;
  }
  OfferedShape legacy_offset = compact("legacy-byte-offset", {3, 5}, Order::offset);
  legacy_offset.version = dl::kLastLegacyRelease;
  shapes.push_back(std::move(legacy_offset));
  OfferedShape null_strides = compact("strides-null-1.1", {3, 5});
  null_strides.explicit_strides = false;
  null_strides.version = {1, 1};
  shapes.push_back(std::move(null_strides));
  // ndim 0 to 8 (extent 2 on each axis), and one past what common importers
  // take (NumPy 64 since 2.0, 32 before; PyTorch 25 on some paths): 40.
  for (int ndim = 0; ndim <= 8; ++ndim) {
    shapes.push_back(compact(fmt::format("ndim-{}", ndim),
                             std::vector<std::int64_t>(static_cast<std::size_t>(ndim), 2)));
  }
  std::vector<std::int64_t> deep(40, 1);
  deep[0] = deep[20] = deep[39] = 2;
  shapes.push_back(compact("ndim-40", deep));
  OfferedShape read_only = compact("read-only", {3, 5});
  read_only.flags = dl::kFlagReadOnly;
  shapes.push_back(std::move(read_only));
  OfferedShape copied = compact("is-copied", {3, 5});
  copied.flags = dl::kFlagIsCopied;
  shapes.push_back(std::move(copied));
  OfferedShape no_deleter = compact("null-deleter", {3, 5});
  no_deleter.null_deleter = true;
  shapes.push_back(std::move(no_deleter));
  return shapes;
}

// The versions a consumer meets, on every kind: legacy, 1.0 to 1.3.
std::vector<OfferedShape> version_axis() {
  std::vector<OfferedShape> shapes;
  for (dl::Release version : {dl::kLastLegacyRelease, dl::Release{1, 0}, dl::Release{1, 1},
                              dl::Release{1, 2}, dl::kModelRelease}) {
    OfferedShape shape = compact(version == dl::kModelRelease ? std::string("c-order")
                                 : version == dl::kLastLegacyRelease
                                     ? std::string("legacy")
                                     : fmt::format("version-{}", dl::to_string(version)),
                                 {3, 5});
    shape.version = version;
    shape.explicit_strides = false;
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

std::optional<OfferedShape> compact_twin(const OfferedShape& shape) {
  OfferedShape twin = shape;
  twin.name = shape.name + "~compact";
  twin.explicit_strides = true;
  twin.null_data = false;
  const std::vector<std::int64_t>& extents = shape.layout.shape;
  std::vector<std::int64_t> row_major =
      exchange::make_layout(extents, 1, exchange::Order::c).strides;
  bool empty = std::find(extents.begin(), extents.end(), 0) != extents.end();
  for (std::size_t k = 0; k < extents.size(); ++k) {
    if (empty || extents[k] == 1) twin.layout.strides[k] = row_major[k];
  }
  // NULL strides are offered only where the version allows them (before 1.2).
  bool null_strides = !shape.explicit_strides && shape.version < dl::Release{1, 2};
  bool same = twin.layout.strides == shape.layout.strides && !null_strides && !shape.null_data;
  if (same) return std::nullopt;
  return twin;
}

std::vector<std::string> features_of(const OfferedShape& shape, std::optional<UsmKind> kind) {
  const std::string& name = shape.name;
  std::vector<std::string> features{name};
  if (kind) features.push_back(fmt::format("{}-usm", facts::to_string(*kind)));
  if (name.starts_with("dtype-")) features.push_back(name.substr(6));
  if (shape.dtype.bits % 8 != 0) features.emplace_back("sub-byte");
  if (name.starts_with("size0")) features.emplace_back("size0");
  if (name.starts_with("broadcast")) features.emplace_back("broadcast");
  if (name.ends_with("byte-offset")) features.emplace_back("byte-offset");
  if (name.starts_with("legacy")) features.emplace_back("legacy");
  if (name == "negative-stride") features.emplace_back("negative-strides");
  if (name == "strides-null-1.1") features.emplace_back("null-strides");
  if (name == "ndim-40") features.emplace_back("high-ndim");
  if (name == "ndim-0" || name == "scalar-byte-offset") features.emplace_back("ndim0");
  return features;
}

std::vector<std::byte> offered_image(const OfferedShape& shape) {
  std::uint64_t element_bytes = element_bytes_of(shape);
  const exchange::Layout& layout = shape.layout;
  std::vector<std::byte> image = exchange::pattern_image(layout, element_bytes);
  if (shape.dtype.code != dl::kDLBool) return image;
  std::uint64_t count = facts::checked_element_count(layout.shape).value_or(0);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t at =
        static_cast<std::int64_t>(layout.byte_offset) +
        exchange::element_byte_position(i, layout.shape, layout.strides, element_bytes);
    for (std::uint64_t b = 0; b < element_bytes; ++b) {
      std::byte& value = image[static_cast<std::size_t>(at) + b];
      value = b == 0 ? (value & std::byte{1}) : std::byte{0};
    }
  }
  return image;
}

std::vector<InvalidCell> invalid_cells() {
  std::vector<InvalidCell> cells;
  for (const auto& [name, rule] : kNamedInvalidCells) cells.push_back({name, std::string(rule)});
  for (const StructBreak& broken : kStructBreaks) {
    cells.push_back({cell_name(broken.rule_id), std::string(broken.rule_id)});
  }
  return cells;
}

std::vector<std::string> invalid_case_names() {
  std::vector<std::string> names;
  for (InvalidCell& cell : invalid_cells()) names.push_back(std::move(cell.name));
  return names;
}

void break_after_export(const std::string& name, dl::DLTensor& body,
                        std::int32_t root_device_count) {
  for (const StructBreak& broken : kStructBreaks) {
    if (cell_name(broken.rule_id) == name) broken.apply(body, root_device_count);
  }
}

OfferedShape invalid_shape(const std::string& name) {
  OfferedShape shape = compact(name, {3, 5});
  if (name == "strides-null-1.2") shape.version = {1, 2};
  return shape;
}

}  // namespace dlpack_usm::suite
