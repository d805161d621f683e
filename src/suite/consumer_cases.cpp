#include "suite/consumer_cases.hpp"

#include <array>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/pattern.hpp"
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

// The tensors every consumer must import, and those it must refuse.
constexpr std::array kValidCases{
    "c-order",         "legacy",          "f-order",          "strided",
    "byte-offset",     "negative-stride", "extent-1-strides", "strides-null-1.1",
    "size0-null-data", "ndim0",           "read-only"};
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
};

struct Shape {
  exchange::Layout layout;
  exchange::Order order = exchange::Order::c;
  dl::Release version = dl::kModelRelease;
  bool read_only = false;
};

Shape shape_of(const std::string& name, std::uint64_t element_bytes) {
  Shape shape;
  exchange::Order order = name == "f-order"           ? exchange::Order::f
                          : name == "strided"         ? exchange::Order::strided
                          : name == "byte-offset"     ? exchange::Order::offset
                          : name == "negative-stride" ? exchange::Order::negative
                                                      : exchange::Order::c;
  std::vector<std::int64_t> extents = name == "size0-null-data" ? std::vector<std::int64_t>{0, 5}
                                      : name == "ndim0"         ? std::vector<std::int64_t>{}
                                      : name == "extent-1-strides"
                                          ? std::vector<std::int64_t>{3, 1, 5}
                                          : std::vector<std::int64_t>{3, 5};
  shape.layout = exchange::make_layout(extents, element_bytes, order);
  shape.order = order;
  // Any stride is valid on an axis of extent 1; consumers that multiply it
  // in anyway read the wrong element or leave the allocation.
  if (name == "extent-1-strides") shape.layout.strides[1] = 7777;
  if (name == "legacy") shape.version = dl::Release{0, 8};
  if (name == "strides-null-1.1") shape.version = dl::Release{1, 1};
  if (name == "strides-null-1.2") shape.version = dl::Release{1, 2};
  shape.read_only = name == "read-only";
  return shape;
}

facts::UsmKind first_supported_kind(const DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (kind_supported(device, kind)) return kind;
  }
  return UsmKind::unknown;
}

// Exports the pattern in `name`'s layout from a default-context allocation,
// counts its deleter, and breaks it the way an invalid case needs.
OfferedTensor offer(runtime::Runtime& runtime, const DeviceInfo& device, UsmKind kind,
                    const std::string& name) {
  constexpr std::uint64_t kElementBytes = 4;
  Shape shape = shape_of(name, kElementBytes);
  OfferedTensor offered;
  offered.buffer = std::make_shared<runtime::UsmBuffer>(
      runtime.allocate(device.ref, kind, std::max<std::uint64_t>(shape.layout.allocation_bytes, 1),
                       runtime::ContextChoice::platform_default));
  std::vector<std::byte> image = exchange::pattern_image(shape.layout, kElementBytes);
  runtime.copy(offered.buffer->context(), device.ref, offered.buffer->data(), image.data(),
               image.size());
  std::uint64_t count = 1;
  for (std::int64_t extent : shape.layout.shape) count *= static_cast<std::uint64_t>(extent);
  std::array<std::byte, kElementBytes> element{};
  for (std::uint64_t i = 0; i < count; ++i) {
    exchange::pattern_element(i, kElementBytes, element.data());
    offered.checksum = dlpack_usm_checksum(offered.checksum, element.data(), element.size());
  }

  exchange::ExportRequest request;
  request.data = offered.buffer->data();
  request.context = offered.buffer->context();
  request.dtype = {dl::kDLFloat, 32, 1};
  request.shape = shape.layout.shape;
  if (shape.order != exchange::Order::c || name == "extent-1-strides") {
    request.strides = shape.layout.strides;
  }
  request.byte_offset = shape.layout.byte_offset;
  request.keep_alive = offered.buffer;
  exchange::ExportOptions options;
  options.max_version = shape.version;
  options.read_only = shape.read_only;
  exchange::ExportedTensor exported = exchange::export_tensor(runtime, request, options);

  dl::DLTensor* body = nullptr;
  if (exported.capsule.is_versioned()) {
    dl::DLManagedTensorVersioned* tensor = exported.capsule.release_versioned();
    g_versioned_deleter = tensor->deleter;
    tensor->deleter = counting_versioned_deleter;
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
  if (name == "size0-null-data") body->data = nullptr;
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

// A consumer case: which tensor is offered (kValidCases, kInvalidCases), in
// which kind of USM.
struct ConsumeCase final : CaseDetails {
  ConsumeCase(std::string offered, bool is_valid, UsmKind usm_kind)
      : name(std::move(offered)), valid(is_valid), kind(usm_kind) {}
  std::string name;
  bool valid;
  UsmKind kind;
};

CaseResult run_consume(PluginSession& session, const CaseSpec& spec, const DeviceInfo& device) {
  runtime::Runtime& runtime = session.runtime();
  const ConsumeCase& consume = spec.details_as<ConsumeCase>();
  const std::string& name = consume.name;
  bool valid = consume.valid;
  UsmKind kind = consume.kind;
  OfferedTensor offered = offer(runtime, device, kind, name);
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
  if (status != DLPACK_USM_OK) {
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
  if (g_consumer_deleter_calls != 1) {
    found.add(kDeleterCountRule,
              fmt::format("rule {}: the deleter ran {} times by the time consume returned "
                          "(must be 1)",
                          kDeleterCountRule, g_consumer_deleter_calls));
  }
  return found.result(spec.id, valid ? fmt::format("accepted with the right checksum {:#018x}; "
                                                   "the deleter ran once",
                                                   offered.checksum)
                                     : fmt::format("rejected ({}); the deleter ran once", reason));
}

}  // namespace

std::vector<CaseSpec> ConsumerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  std::vector<std::string> rules{kChecksumRule, kRejectsValidRule, kAcceptsInvalidRule,
                                 kDeleterCountRule};
  for (const runtime::PlatformInfo& platform : runtime().inventory().platforms) {
    for (const DeviceInfo& root : platform.devices) {
      const std::string& device = root.selector_name;
      if (!root.usm) {
        cases.push_back(
            plugin_not_supported_case(fmt::format("consumer/{}/usm", device), "consumer", device,
                                      "the device has no cl_intel_unified_shared_memory"));
        continue;
      }
      for (UsmKind kind : kLiveKinds) {
        if (!kind_supported(root, kind)) continue;
        for (const char* name : kValidCases) {
          cases.push_back(plugin_case(
              fmt::format("consumer/{}/{}/{}", device, facts::to_string(kind), name), "consumer",
              device, rules, std::make_shared<const ConsumeCase>(name, true, kind)));
        }
      }
      for (const char* name : kInvalidCases) {
        cases.push_back(plugin_case(
            fmt::format("consumer/{}/invalid/{}", device, name), "consumer", device, rules,
            std::make_shared<const ConsumeCase>(name, false, first_supported_kind(root))));
      }
    }
  }
  return cases;
}

CaseResult ConsumerCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                      const runtime::DeviceInfo& device) {
  return run_consume(session, spec, device);
}

}  // namespace dlpack_usm::suite
