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
#include "suite/consumer_matrix.hpp"
#include "suite/live_matrix.hpp"
#include "suite/offered_tensor.hpp"
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

facts::UsmKind first_supported_kind(const DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (kind_supported(device, kind)) return kind;
  }
  return UsmKind::unknown;
}

// A consumer case: which tensor is offered, valid or not, in which kind of USM.
struct ConsumeCase final : CaseDetails {
  ConsumeCase(OfferedShape offered, bool is_valid, UsmKind usm_kind)
      : shape(std::move(offered)), valid(is_valid), kind(usm_kind) {}
  OfferedShape shape;
  bool valid;
  UsmKind kind;
};

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
      free_unconsumed(offered);
      return {spec.id, Outcome::not_supported,
              "this runtime's default context knows allocations of other contexts, so an "
              "importer cannot tell them apart"};
    }
  }

  DlpackUsmConsumeResult result{};
  result.struct_size = sizeof result;
  reset_offered_deleter_calls();
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
  if (offered_deleter_calls() != 1) {
    found.add(kDeleterCountRule,
              fmt::format("rule {}: the deleter ran {} times by the time consume returned "
                          "(must be 1)",
                          kDeleterCountRule, offered_deleter_calls()));
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
      for (const std::string& name : invalid_case_names()) {
        add(invalid_shape(name), false, first, "invalid", {});
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
