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
#include "suite/consumer_view.hpp"
#include "suite/live_matrix.hpp"
#include "suite/offered_tensor.hpp"
#include "suite/owner_answer_cases.hpp"
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
constexpr const char* kWrongViewRule = "DLP-CONSUMER-WRONG-VIEW";
constexpr const char* kCallsNullDeleterRule = "DLP-CONSUMER-CALLS-NULL-DELETER";

facts::UsmKind first_supported_kind(const DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (kind_supported(device, kind)) return kind;
  }
  return UsmKind::unknown;
}

// A consumer case: which tensor is offered, valid or not, in which kind of USM.
struct ConsumeCase final : CaseDetails {
  ConsumeCase(OfferedShape offered, bool is_valid, UsmKind usm_kind, std::string broken_rule)
      : shape(std::move(offered)), valid(is_valid), kind(usm_kind), rule(std::move(broken_rule)) {}
  OfferedShape shape;
  bool valid;
  UsmKind kind;
  std::string rule;  // the catalog rule an invalid tensor breaks
};

// The view a consumer of plugin ABI 3 reported, where it reported one.
bool view_reported(const PluginSession& session, const DlpackUsmConsumeResult& result) {
  return session.table().table->abi_version >= 3 && result.view_reported != 0;
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
  } else if (!valid && result.accepted != 0) {
    found.add(kAcceptsInvalidRule,
              fmt::format("rule {}: the invalid tensor ({}, which breaks {}) was accepted",
                          kAcceptsInvalidRule, name, consume.rule));
  } else if (valid) {
    if (result.checksum != offered.checksum) {
      found.add(kChecksumRule,
                fmt::format("rule {}: checksum {:#018x}, the elements in logical order give "
                            "{:#018x}",
                            kChecksumRule, result.checksum, offered.checksum));
    }
    std::optional<std::string> difference =
        view_reported(session, result)
            ? first_view_difference(result, consume.shape, device.dlpack_device_id())
            : std::nullopt;
    if (difference) {
      found.add(kWrongViewRule, fmt::format("rule {}: the view the consumer imported differs: {}",
                                            kWrongViewRule, *difference));
    }
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
  // A NULL deleter is never called (a call would have crashed the case,
  // which DLP-CONSUMER-CALLS-NULL-DELETER charges): the tool frees it.
  bool null_deleter = consume.shape.null_deleter;
  if (null_deleter) {
    free_unconsumed(offered);
  } else if (offered_deleter_calls() != 1) {
    found.add(kDeleterCountRule,
              fmt::format("rule {}: the deleter ran {} times by the time consume returned "
                          "(must be 1)",
                          kDeleterCountRule, offered_deleter_calls()));
  }
  const char* deleter_note =
      null_deleter ? "the NULL deleter was left alone" : "the deleter ran once";
  if (declined && found.empty()) {
    return {spec.id, valid ? Outcome::not_supported : Outcome::pass,
            fmt::format("declined as not supported ({}); {}", reason, deleter_note)};
  }
  std::string view_note = view_reported(session, result) ? " and view" : "";
  return found.result(spec.id, valid ? fmt::format("accepted with the right checksum {:#018x}{}; "
                                                   "{}",
                                                   offered.checksum, view_note, deleter_note)
                                     : fmt::format("rejected ({}, which breaks {}); {}", reason,
                                                   consume.rule, deleter_note));
}

// The rules every consumer case can break.
std::vector<std::string> consumer_case_rules() {
  return {kChecksumRule,     kWrongViewRule,      kRejectsValidRule,    kAcceptsInvalidRule,
          kDeleterCountRule, kWritesReadOnlyRule, kCallsNullDeleterRule};
}

// The view a consumer reports is compared with the device_id the tool's
// export took from the runtime's owner answer: a wrong answer blocks every
// valid cell of the device (an invalid one stays invalid whatever the id).
void block_valid_cells(runtime::Runtime& runtime, std::vector<CaseSpec>& cases) {
  OwnerAnswerBlocks blocks(runtime);
  for (CaseSpec& spec : cases) {
    if (!spec.profile_axis.empty() && spec.profile_axis != "invalid") blocks.block(spec);
  }
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
  const std::vector<std::string> rules = consumer_case_rules();
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
      // One case per cell: its id, and where it sits in the profile.
      auto add = [&](const OfferedShape& shape, UsmKind kind, std::string_view group,
                     std::vector<std::string> features, std::string axis, std::string value,
                     std::string broken_rule = {}) {
        bool valid = broken_rule.empty();
        CaseSpec spec = plugin_case(
            fmt::format("consumer/{}/{}/{}", device, group, shape.name), "consumer", device, rules,
            std::make_shared<const ConsumeCase>(shape, valid, kind, std::move(broken_rule)));
        spec.features = std::move(features);
        if (valid) spec.decline_rule = kRejectsValidRule;
        // A consumer that calls the NULL deleter offered dies on the call.
        if (shape.null_deleter) spec.crash_rule = kCallsNullDeleterRule;
        spec.profile_axis = std::move(axis);
        spec.profile_value = std::move(value);
        cases.push_back(std::move(spec));
      };
      UsmKind first = first_supported_kind(root);
      for (UsmKind kind : kLiveKinds) {
        if (!kind_supported(root, kind)) continue;
        std::string kind_name = fmt::format("{}-usm", facts::to_string(kind));
        for (const OfferedShape& shape : versions) {
          // The newest version stands for its kind on the usm-kind axis; the
          // others are the version axis, on the first kind as is and on the
          // other kinds with the kind named.
          std::string version = dl::to_string(shape.version);
          bool newest = shape.version == dl::kModelRelease;
          add(shape, kind, facts::to_string(kind), features_of(shape, kind),
              newest ? "usm-kind" : "version",
              newest          ? kind_name
              : kind == first ? version
                              : fmt::format("{}/{}", version, kind_name));
        }
      }
      for (const OfferedShape& shape : cells) {
        bool dtype = shape.name.starts_with("dtype-");
        add(shape, first, facts::to_string(first), features_of(shape, std::nullopt),
            dtype ? "dtype" : "layout", dtype ? shape.name.substr(6) : shape.name);
      }
      for (const InvalidCell& cell : invalid_cells()) {
        add(invalid_shape(cell.name), first, "invalid", {}, "invalid", cell.name, cell.rule_id);
      }
    }
  }
  block_valid_cells(runtime(), cases);
  return cases;
}

CaseResult ConsumerCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                      const runtime::DeviceInfo& device) {
  return run_consume(session, spec, device);
}

}  // namespace dlpack_usm::suite
