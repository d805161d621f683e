#include "suite/consumer_cases.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "dlpack/names.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/pattern.hpp"
#include "facts/element_size.hpp"
#include "suite/live_matrix.hpp"
#include "suite/produced_tensor.hpp"
#include "suite/producer_cases.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

constexpr const char* kChecksumRule = "DLP-CONSUMER-CHECKSUM";
constexpr const char* kRejectsValidRule = "DLP-CONSUMER-REJECTS-VALID";
constexpr const char* kAcceptsInvalidRule = "DLP-CONSUMER-ACCEPTS-INVALID";
constexpr const char* kDeleterCountRule = "DLP-CONSUMER-DELETER-COUNT";
constexpr const char* kWritesReadOnlyRule = "DLP-CONSUMER-WRITES-READ-ONLY";

// The invalid tensors a consumer must refuse, each breaking one rule.
constexpr std::array kInvalidCases{"major-version-2", "separate-context", "unknown-pointer",
                                   "strides-null-1.2"};

// Each case runs in its own child process, so one counter per process sees
// how often the consumer called the tool's deleter. Only the first call
// frees; later ones are counted and touch nothing.
int g_consumer_deleter_calls = 0;
void (*g_versioned_deleter)(dl::DLManagedTensorVersioned*) = nullptr;
void (*g_legacy_deleter)(dl::DLManagedTensor*) = nullptr;

void counting_versioned_deleter(dl::DLManagedTensorVersioned* tensor) {
  if (++g_consumer_deleter_calls == 1 && g_versioned_deleter != nullptr)
    g_versioned_deleter(tensor);
}

void counting_legacy_deleter(dl::DLManagedTensor* tensor) {
  if (++g_consumer_deleter_calls == 1 && g_legacy_deleter != nullptr) g_legacy_deleter(tensor);
}

// A tensor handed to the consumer and everything it points to, kept alive
// until the case ends whatever the consumer does.
struct OfferedTensor {
  std::shared_ptr<runtime::UsmBuffer> buffer;
  runtime::UsmBuffer separate;
  std::unique_ptr<float[]> host_memory;
  void* tensor = nullptr;
  bool versioned = true;
  std::uint64_t checksum = DLPACK_USM_CHECKSUM_SEED;
  std::vector<std::byte> image;  // the allocation's bytes as offered
};

// One tensor of the matrix, described: a cell of the dtype, layout or
// version x kind axis (the others at their defaults: float32, 3x5 C order,
// DLPack 1.3), or an invalid tensor (broken after export by `name`).
struct OfferedShape {
  std::string name;
  dl::DLDataType dtype{dl::kDLFloat, 32, 1};
  exchange::Layout layout;
  bool explicit_strides = true;  // false: NULL strides where the version allows them
  dl::Release version = dl::kModelRelease;
  std::uint64_t flags = 0;  // set on the versioned tensor after export
  bool null_data = false;
};

std::uint64_t element_bytes_of(const OfferedShape& shape) {
  return facts::element_storage_bytes(shape.dtype);
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

// Every dtype of the tool's table, one lane, each width its code has:
// int/uint 8-64, float 16-64, bfloat16, complex 64/128, bool, the float8
// kinds, and float6/float4 padded to a byte (IS_SUBBYTE_TYPE_PADDED).
std::vector<dl::DLDataType> matrix_dtypes() {
  std::vector<dl::DLDataType> dtypes;
  for (const dl::DtypeCodeName& code : dl::dtype_code_table()) {
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

// What a valid case asks of the consumer, for --require: its name, its
// dtype, its USM kind where the case stands for the kind (the version axis),
// and the family of layouts it belongs to.
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

OfferedShape invalid_shape(const std::string& name) {
  OfferedShape shape = compact(name, {3, 5});
  if (name == "strides-null-1.2") shape.version = {1, 2};
  return shape;
}

facts::UsmKind first_supported_kind(const DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (kind_supported(device, kind)) return kind;
  }
  return UsmKind::unknown;
}

// Exports the pattern in `shape`'s layout from a default-context allocation,
// counts its deleter, and breaks it the way an invalid case needs. The
// checksum expected is read back from the image at each element's position,
// so broadcast axes (stride 0) count their shared element each time.
OfferedTensor offer(runtime::Runtime& runtime, const DeviceInfo& device, UsmKind kind,
                    const OfferedShape& shape) {
  const std::string& name = shape.name;
  std::uint64_t element_bytes = element_bytes_of(shape);
  const exchange::Layout& layout = shape.layout;
  // The tool's export refuses a broadcast view (DLP-STRIDES-ZERO is a
  // warning, and its own exports refuse those too): it exports compact
  // strides over an allocation large enough for them, and writes the zeros
  // in afterwards.
  exchange::Layout compact_layout =
      exchange::make_layout(layout.shape, element_bytes, exchange::Order::c);
  std::vector<std::int64_t> export_strides = layout.strides;
  bool broadcast = false;
  for (std::size_t k = 0; k < export_strides.size(); ++k) {
    if (export_strides[k] != 0 || layout.shape[k] <= 1) continue;
    export_strides[k] = compact_layout.strides[k];
    broadcast = true;
  }
  std::uint64_t allocation_bytes =
      broadcast
          ? std::max(layout.allocation_bytes, layout.byte_offset + compact_layout.allocation_bytes)
          : layout.allocation_bytes;
  OfferedTensor offered;
  offered.buffer = std::make_shared<runtime::UsmBuffer>(
      runtime.allocate(device.ref, kind, std::max<std::uint64_t>(allocation_bytes, 1),
                       runtime::ContextChoice::platform_default));
  offered.image = exchange::pattern_image(layout, element_bytes);
  offered.image.resize(allocation_bytes, exchange::kGapFiller);
  const std::vector<std::byte>& image = offered.image;
  runtime.copy(offered.buffer->context(), device.ref, offered.buffer->data(), image.data(),
               image.size());
  std::uint64_t count = facts::checked_element_count(layout.shape).value_or(0);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t at =
        static_cast<std::int64_t>(layout.byte_offset) +
        exchange::element_byte_position(i, layout.shape, layout.strides, element_bytes);
    offered.checksum = dlpack_usm_checksum(offered.checksum, image.data() + at, element_bytes);
  }

  exchange::ExportRequest request;
  request.data = offered.buffer->data();
  request.context = offered.buffer->context();
  request.dtype = shape.dtype;
  request.shape = layout.shape;
  if (shape.explicit_strides) request.strides = export_strides;
  request.byte_offset = layout.byte_offset;
  request.keep_alive = offered.buffer;
  exchange::ExportOptions options;
  options.max_version = shape.version;
  options.read_only = (shape.flags & dl::kFlagReadOnly) != 0;
  exchange::ExportedTensor exported = exchange::export_tensor(runtime, request, options);

  dl::DLTensor* body = nullptr;
  if (exported.capsule.is_versioned()) {
    dl::DLManagedTensorVersioned* tensor = exported.capsule.release_versioned();
    g_versioned_deleter = tensor->deleter;
    tensor->deleter = counting_versioned_deleter;
    tensor->flags |= shape.flags;
    if (name == "major-version-2") tensor->version.major = 2;
    body = &tensor->dl_tensor;
    offered.tensor = tensor;
  } else {
    dl::DLManagedTensor* tensor = exported.capsule.release_legacy();
    g_legacy_deleter = tensor->deleter;
    tensor->deleter = counting_legacy_deleter;
    body = &tensor->dl_tensor;
    offered.tensor = tensor;
    offered.versioned = false;
  }
  if (shape.null_data) body->data = nullptr;
  if (broadcast) std::copy(layout.strides.begin(), layout.strides.end(), body->strides);
  if (name == "strides-null-1.2") body->strides = nullptr;
  if (name == "separate-context") {
    offered.separate = runtime.allocate(device.ref, kind, offered.buffer->size(),
                                        runtime::ContextChoice::separate);
    body->data = offered.separate.data();
  }
  if (name == "unknown-pointer") {
    offered.host_memory = std::make_unique<float[]>(16);
    body->data = offered.host_memory.get();
  }
  return offered;
}

// A consumer case: which tensor is offered, valid or not, in which kind of USM.
struct ConsumeCase final : CaseDetails {
  ConsumeCase(OfferedShape offered, bool is_valid, UsmKind usm_kind)
      : shape(std::move(offered)), valid(is_valid), kind(usm_kind) {}
  OfferedShape shape;
  bool valid;
  UsmKind kind;
};

// How many bytes of the allocation differ from what was offered: the tool's
// allocation outlives the deleter, so it can be read back after consume.
std::size_t written_bytes(runtime::Runtime& runtime, const DeviceInfo& device,
                          const OfferedTensor& offered) {
  std::vector<std::byte> now(offered.image.size());
  runtime.copy(offered.buffer->context(), device.ref, now.data(), offered.buffer->data(),
               now.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < now.size(); ++i) changed += now[i] != offered.image[i] ? 1 : 0;
  return changed;
}

CaseResult run_consume(PluginSession& session, const CaseSpec& spec, const DeviceInfo& device) {
  runtime::Runtime& runtime = session.runtime();
  const ConsumeCase& consume = spec.details_as<ConsumeCase>();
  const std::string& name = consume.shape.name;
  bool valid = consume.valid;
  UsmKind kind = consume.kind;
  OfferedTensor offered = offer(runtime, device, kind, consume.shape);
  if (name == "separate-context") {
    // A runtime whose lookups ignore the context (PoCL 5.0) finds the pointer
    // in the default context too: no consumer can tell, so nothing is tested.
    runtime::PointerInfo seen =
        runtime.query(offered.separate.data(),
                      runtime.default_context(offered.separate.context().platform_index));
    if (seen.kind != UsmKind::unknown) {
      g_versioned_deleter(static_cast<dl::DLManagedTensorVersioned*>(offered.tensor));
      return {spec.id, Outcome::not_supported,
              "this runtime's default context knows allocations of other contexts, so an "
              "importer cannot tell them apart"};
    }
  }

  DlpackUsmConsumeResult result{};
  result.struct_size = sizeof result;
  g_consumer_deleter_calls = 0;  // a worker runs many cases in one process
  int status = session.table().table->consume(session.host(), offered.tensor,
                                              offered.versioned ? 1 : 0, &result);
  result.reason[sizeof result.reason - 1] = '\0';
  // The library's text, escaped for terminals and made valid UTF-8 for JSON.
  std::string reason = printable(result.reason);
  CaseFindings found;
  bool declined = status == DLPACK_USM_UNSUPPORTED;
  if (declined) {
    // A clean decline (the Python protocol's BufferError): the library says
    // it does not support this tensor, which a valid one may well be.
  } else if (status != DLPACK_USM_OK) {
    found.add("", fmt::format("consume returned {} instead of DLPACK_USM_OK", status));
  } else if (valid && result.accepted == 0) {
    found.add(kRejectsValidRule,
              fmt::format("rule {}: the valid tensor was rejected: {}", kRejectsValidRule, reason));
  } else if (valid && result.checksum != offered.checksum) {
    found.add(kChecksumRule,
              fmt::format("rule {}: checksum {:#018x}, the elements in logical order give "
                          "{:#018x}",
                          kChecksumRule, result.checksum, offered.checksum));
  } else if (!valid && result.accepted != 0) {
    found.add(kAcceptsInvalidRule, fmt::format("rule {}: the invalid tensor ({}) was accepted",
                                               kAcceptsInvalidRule, name));
  }
  if (std::size_t written = (consume.shape.flags & dl::kFlagReadOnly) != 0
                                ? written_bytes(runtime, device, offered)
                                : 0;
      written != 0) {
    found.add(kWritesReadOnlyRule,
              fmt::format("rule {}: {} bytes of the READ_ONLY tensor's allocation changed during "
                          "consume",
                          kWritesReadOnlyRule, written));
  }
  if (g_consumer_deleter_calls != 1) {
    found.add(kDeleterCountRule,
              fmt::format("rule {}: the deleter ran {} times by the time consume returned "
                          "(must be 1)",
                          kDeleterCountRule, g_consumer_deleter_calls));
  }
  if (declined && found.empty()) {
    return {spec.id, valid ? Outcome::not_supported : Outcome::pass,
            fmt::format("declined as not supported ({}); the deleter ran once", reason)};
  }
  return found.result(spec.id, valid ? fmt::format("accepted with the right checksum {:#018x}; "
                                                   "the deleter ran once",
                                                   offered.checksum)
                                     : fmt::format("rejected ({}); the deleter ran once", reason));
}

}  // namespace

std::vector<std::string> consumer_features() {
  std::set<std::string> features;
  for (UsmKind kind : kLiveKinds) {
    for (const OfferedShape& shape : version_axis()) {
      for (std::string& feature : features_of(shape, kind)) features.insert(std::move(feature));
    }
  }
  std::vector<OfferedShape> cells = dtype_axis();
  for (OfferedShape& shape : layout_axis()) cells.push_back(std::move(shape));
  for (const OfferedShape& shape : cells) {
    for (std::string& feature : features_of(shape, std::nullopt)) {
      features.insert(std::move(feature));
    }
  }
  return {features.begin(), features.end()};
}

std::vector<CaseSpec> ConsumerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  std::vector<std::string> rules{kChecksumRule, kRejectsValidRule, kAcceptsInvalidRule,
                                 kDeleterCountRule, kWritesReadOnlyRule};
  // Not the cross product: every version on every kind, and the dtype and
  // layout axes on the first kind the device has (device USM where it can).
  std::vector<OfferedShape> versions = version_axis();
  std::vector<OfferedShape> cells = dtype_axis();
  for (OfferedShape& shape : layout_axis()) cells.push_back(std::move(shape));
  for (const runtime::PlatformInfo& platform : runtime().inventory().platforms) {
    for (const DeviceInfo& root : platform.devices) {
      const std::string& device = root.selector_name;
      if (!root.usm) {
        cases.push_back(
            plugin_not_supported_case(fmt::format("consumer/{}/usm", device), "consumer", device,
                                      "the device has no cl_intel_unified_shared_memory"));
        continue;
      }
      auto add = [&](const OfferedShape& shape, bool valid, UsmKind kind, std::string_view group,
                     std::vector<std::string> features) {
        CaseSpec spec =
            plugin_case(fmt::format("consumer/{}/{}/{}", device, group, shape.name), "consumer",
                        device, rules, std::make_shared<const ConsumeCase>(shape, valid, kind));
        spec.features = std::move(features);
        if (valid) spec.decline_rule = kRejectsValidRule;
        cases.push_back(std::move(spec));
      };
      UsmKind first = first_supported_kind(root);
      for (UsmKind kind : kLiveKinds) {
        if (!kind_supported(root, kind)) continue;
        for (const OfferedShape& shape : versions) {
          add(shape, true, kind, facts::to_string(kind), features_of(shape, kind));
        }
      }
      for (const OfferedShape& shape : cells) {
        add(shape, true, first, facts::to_string(first), features_of(shape, std::nullopt));
      }
      for (const char* name : kInvalidCases) add(invalid_shape(name), false, first, "invalid", {});
    }
  }
  return cases;
}

CaseResult ConsumerCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                      const runtime::DeviceInfo& device) {
  return run_consume(session, spec, device);
}

}  // namespace dlpack_usm::suite
