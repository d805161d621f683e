#include "suite/cases/consumer/consumer_cases.hpp"

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
#include "matrix/consumer_matrix.hpp"
#include "matrix/consumer_verdict.hpp"
#include "matrix/consumer_view.hpp"
#include "matrix/live_matrix.hpp"
#include "matrix/offered_tensor.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/plugin/plugin_snippet.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/producer_cases.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

facts::UsmKind first_supported_kind(const DeviceInfo& device) {
  for (UsmKind kind : {UsmKind::device, UsmKind::shared, UsmKind::host}) {
    if (matrix::kind_supported(device, kind)) return kind;
  }
  return UsmKind::unknown;
}

// A consumer case: which tensor is offered, valid or not, in which kind of USM.
struct ConsumeCase final : CaseDetails {
  ConsumeCase(matrix::OfferedShape offered, bool is_valid, UsmKind usm_kind,
              std::string broken_rule)
      : shape(std::move(offered)), valid(is_valid), kind(usm_kind), rule(std::move(broken_rule)) {}
  matrix::OfferedShape shape;
  bool valid;
  UsmKind kind;
  std::string rule;  // the catalog rule an invalid tensor breaks
};

// The view a consumer of plugin ABI 3 reported, where it reported one.
bool view_reported(const PluginSession& session, const DlpackUsmConsumeResult& result) {
  return session.table().table->abi_version >= 3 && result.view_reported != 0;
}

// One call of the library's consume on one offered tensor, and what the
// tool read back afterwards.
struct ConsumeCall {
  int status = DLPACK_USM_OK;
  DlpackUsmConsumeResult result{};
  std::string reason;  // the library's text, escaped for terminals, valid UTF-8
  int deleter_calls = 0;
  std::size_t written = 0;     // bytes of a READ_ONLY tensor's allocation changed
  std::uint64_t checksum = 0;  // of the elements offered, in logical order

  bool declined() const { return status == DLPACK_USM_UNSUPPORTED || result.accepted == 0; }
};

ConsumeCall call_consume(PluginSession& session, const DeviceInfo& device, UsmKind kind,
                         const matrix::OfferedShape& shape, matrix::OfferedTensor& offered) {
  ConsumeCall call;
  call.checksum = offered.checksum;
  call.result.struct_size = sizeof call.result;
  matrix::reset_offered_deleter_calls();
  call.status = session.table().table->consume(session.host(), offered.tensor,
                                               offered.versioned ? 1 : 0, &call.result);
  call.result.reason[sizeof call.result.reason - 1] = '\0';
  call.reason = printable(call.result.reason);
  if ((shape.flags & dlpack::kFlagReadOnly) != 0) {
    call.written = matrix::written_bytes(session.runtime(), device, offered);
  }
  // A NULL deleter is never called (a call would have crashed the case,
  // which DLP-CONSUMER-CALLS-NULL-DELETER charges): the tool frees it.
  if (shape.null_deleter) matrix::free_unconsumed(offered);
  call.deleter_calls = matrix::offered_deleter_calls();
  (void)kind;
  return call;
}

// What the consumer did, as the verdict model reads it.
matrix::ConsumerObservation observe(const PluginSession& session, const ConsumeCase& consume,
                                    const ConsumeCall& call, std::int32_t device_id) {
  matrix::ConsumerObservation seen;
  seen.cell = consume.shape.name;
  seen.valid = consume.valid;
  seen.broken_rule = consume.rule;
  seen.unknown_major = consume.rule == rules::ids::kVersionMajor;
  seen.read_only = (consume.shape.flags & dlpack::kFlagReadOnly) != 0;
  seen.null_deleter = consume.shape.null_deleter;
  seen.action =
      call.declined() ? matrix::ConsumerAction::declined : matrix::ConsumerAction::accepted;
  seen.reason = call.reason;
  seen.deleter_calls = seen.null_deleter ? 0 : call.deleter_calls;
  seen.read_only_bytes_written = call.written;
  if (!call.declined() && consume.valid) {
    if (call.result.checksum != call.checksum) {
      seen.data_difference = fmt::format(
          "checksum {:#018x}, the elements in logical order give "
          "{:#018x}",
          call.result.checksum, call.checksum);
    }
    if (view_reported(session, call.result)) {
      seen.view_difference = matrix::first_view_difference(call.result, consume.shape, device_id);
    }
  }
  return seen;
}

// After a decline of a valid cell: whether the consumer takes the same
// elements described canonically.
std::optional<matrix::TwinObservation> try_twin(PluginSession& session, const DeviceInfo& device,
                                                const ConsumeCase& consume) {
  std::optional<matrix::OfferedShape> twin = matrix::compact_twin(consume.shape);
  if (!twin) return std::nullopt;
  matrix::OfferedTensor offered = matrix::offer(session.runtime(), device, consume.kind, *twin);
  ConsumeCall call = call_consume(session, device, consume.kind, *twin, offered);
  return matrix::TwinObservation{twin->name, call.status == DLPACK_USM_OK && !call.declined()};
}

CaseResult verdict_result(const CaseSpec& spec, const matrix::ConsumerVerdict& verdict) {
  CaseFindings found;
  for (const matrix::ConsumerFinding& finding : verdict.findings) {
    found.add(finding.rule_id, finding.message);
  }
  CaseResult result = found.result(spec.id, verdict.message);
  result.message = verdict.message;
  if (verdict.status == matrix::ConsumerStatus::not_supported) {
    result.outcome = Outcome::not_supported;
  }
  result.exchange = parse_exchange_outcome(verdict.profile_class).value_or(ExchangeOutcome::none);
  result.decline_reason = verdict.decline_reason;
  return result;
}

CaseResult run_consume(PluginSession& session, const CaseSpec& spec, const DeviceInfo& device) {
  runtime::Runtime& runtime = session.runtime();
  const ConsumeCase& consume = spec.details_as<ConsumeCase>();
  matrix::OfferedTensor offered = matrix::offer(runtime, device, consume.kind, consume.shape);
  if (consume.shape.name == "separate-context") {
    // A runtime whose lookups ignore the context (PoCL 5.0) finds the pointer
    // in the default context too: no consumer can tell, so nothing is tested.
    runtime::PointerInfo seen =
        runtime.query(offered.separate.data(),
                      runtime.default_context(offered.separate.context().platform_index));
    if (seen.kind != UsmKind::unknown) {
      matrix::free_unconsumed(offered);
      return {spec.id, Outcome::not_supported,
              "this runtime's default context knows allocations of other contexts, so an "
              "importer cannot tell them apart"};
    }
  }
  ConsumeCall call = call_consume(session, device, consume.kind, consume.shape, offered);
  if (call.status != DLPACK_USM_OK && call.status != DLPACK_USM_UNSUPPORTED) {
    CaseFindings found;
    found.add(std::string(rules::ids::kPluginStatus),
              fmt::format("rule {}: consume returned {} instead of DLPACK_USM_OK or "
                          "DLPACK_USM_UNSUPPORTED: {}",
                          rules::ids::kPluginStatus, call.status, call.reason));
    return found.result(spec.id, "");
  }
  matrix::ConsumerObservation seen = observe(session, consume, call, device.dlpack_device_id());
  if (seen.action == matrix::ConsumerAction::declined && seen.valid) {
    seen.twin = try_twin(session, device, consume);
  }
  return verdict_result(spec, matrix::judge_consumer(seen));
}

// The rules every consumer case can break.
// The rules a consumer case is about (check --rule selects by them).
std::vector<std::string> consumer_case_rules() {
  namespace ids = rules::ids;
  std::vector<std::string> judged;
  for (std::string_view rule :
       {ids::kConsumerChecksum, ids::kConsumerWrongView, ids::kConsumerInconsistentDecline,
        ids::kConsumerAcceptsInvalid, ids::kConsumerImportsUnknownMajor, ids::kConsumerDeleterCount,
        ids::kConsumerWritesReadOnly, ids::kConsumerCallsNullDeleter, ids::kConsumerRequiredFeature,
        ids::kPluginStatus}) {
    judged.emplace_back(rule);
  }
  return judged;
}

// The view a consumer reports is compared with the device_id the tool's
// export took from the runtime's owner answer: a wrong answer blocks every
// valid cell of the device (an invalid one stays invalid whatever the id).
void block_valid_cells(runtime::Runtime& runtime, std::vector<CaseSpec>& cases) {
  OwnerAnswerBlocks blocks(runtime);
  for (CaseSpec& spec : cases) {
    if (!spec.place.lines.empty() && spec.place.lines.front().axis != "invalid") {
      blocks.block(spec);
    }
  }
}

// Where a consumer case sits: the group its id names, the features a
// decline of it may need, its place in the profile, and the rule an invalid
// cell breaks ("" for a valid one).
struct CellPlacement {
  std::string group;
  std::vector<std::string> features;
  std::string axis;
  std::string value;
  std::string broken_rule = {};
};

// One case per cell: its id, and where it sits in the profile.
CaseSpec consumer_case(const std::string& device, const matrix::OfferedShape& shape, UsmKind kind,
                       CellPlacement place, const std::vector<std::string>& judged) {
  namespace ids = rules::ids;
  bool valid = place.broken_rule.empty();
  CaseSpec spec = plugin_case(
      fmt::format("consumer/{}/{}/{}", device, place.group, shape.name), "consumer", device, judged,
      std::make_shared<const ConsumeCase>(shape, valid, kind, std::move(place.broken_rule)));
  spec.features = std::move(place.features);
  if (valid) spec.decline_rule = std::string(ids::kConsumerRequiredFeature);
  // A crash or hang on an invalid tensor is a warning, on a valid one a
  // failure; a consumer that calls the NULL deleter offered dies on the call.
  if (!valid) {
    spec.crash_rule = std::string(ids::kPluginCrashInvalid);
    spec.timeout_rule = std::string(ids::kPluginHangInvalid);
  }
  if (shape.null_deleter) spec.crash_rule = std::string(ids::kConsumerCallsNullDeleter);
  spec.place = {Direction::consumer,
                usm_memory(kind),
                {{std::move(place.axis), std::move(place.value)}},
                std::nullopt};
  return spec;
}

// Every version on every kind the device has. The newest version stands for
// its kind on the usm-kind axis; the others are the version axis, on the
// first kind as is and on the other kinds with the kind named.
void add_version_cases(const DeviceInfo& root, UsmKind first,
                       const std::vector<matrix::OfferedShape>& versions,
                       const std::vector<std::string>& judged, std::vector<CaseSpec>& cases) {
  for (UsmKind kind : matrix::kLiveKinds) {
    if (!matrix::kind_supported(root, kind)) continue;
    std::string kind_name = fmt::format("{}-usm", facts::to_string(kind));
    for (const matrix::OfferedShape& shape : versions) {
      std::string version = dlpack::to_string(shape.version);
      bool newest = shape.version == dlpack::kModelRelease;
      CellPlacement place{facts::to_string(kind), matrix::features_of(shape, kind),
                          newest ? "usm-kind" : "version",
                          newest          ? kind_name
                          : kind == first ? version
                                          : fmt::format("{}/{}", version, kind_name)};
      cases.push_back(consumer_case(root.selector_name, shape, kind, std::move(place), judged));
    }
  }
}

// The dtype and layout axes, then the invalid cells, on the first kind the
// device has.
void add_cell_cases(const DeviceInfo& root, UsmKind first,
                    const std::vector<matrix::OfferedShape>& cells,
                    const std::vector<std::string>& judged, std::vector<CaseSpec>& cases) {
  const std::string& device = root.selector_name;
  for (const matrix::OfferedShape& shape : cells) {
    bool dtype = shape.name.starts_with("dtype-");
    CellPlacement place{facts::to_string(first), matrix::features_of(shape, std::nullopt),
                        dtype ? "dtype" : "layout", dtype ? shape.name.substr(6) : shape.name};
    cases.push_back(consumer_case(device, shape, first, std::move(place), judged));
  }
  for (const matrix::InvalidCell& cell : matrix::invalid_cells()) {
    CellPlacement place{"invalid", {}, "invalid", cell.name, cell.rule_id};
    cases.push_back(
        consumer_case(device, matrix::invalid_shape(cell.name), first, std::move(place), judged));
  }
}

}  // namespace

std::vector<std::string> consumer_features() {
  std::set<std::string> features;
  for (UsmKind kind : matrix::kLiveKinds) {
    for (const matrix::OfferedShape& shape : matrix::version_axis()) {
      for (std::string& feature : matrix::features_of(shape, kind))
        features.insert(std::move(feature));
    }
  }
  std::vector<matrix::OfferedShape> cells = matrix::dtype_axis();
  for (matrix::OfferedShape& shape : matrix::layout_axis()) cells.push_back(std::move(shape));
  for (const matrix::OfferedShape& shape : cells) {
    for (std::string& feature : matrix::features_of(shape, std::nullopt)) {
      features.insert(std::move(feature));
    }
  }
  return {features.begin(), features.end()};
}

std::vector<CaseSpec> ConsumerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  const std::vector<std::string> judged = consumer_case_rules();
  // Not the cross product: every version on every kind, and the dtype and
  // layout axes on the first kind the device has (device USM where it can).
  std::vector<matrix::OfferedShape> versions = matrix::version_axis();
  std::vector<matrix::OfferedShape> cells = matrix::dtype_axis();
  for (matrix::OfferedShape& shape : matrix::layout_axis()) cells.push_back(std::move(shape));
  for (const runtime::PlatformInfo& platform : runtime().inventory().platforms) {
    for (const DeviceInfo& root : platform.devices) {
      if (!root.usm) {
        const std::string& device = root.selector_name;
        cases.push_back(
            plugin_not_supported_case(fmt::format("consumer/{}/usm", device), "consumer", device,
                                      "the device has no cl_intel_unified_shared_memory"));
        continue;
      }
      UsmKind first = first_supported_kind(root);
      add_version_cases(root, first, versions, judged, cases);
      add_cell_cases(root, first, cells, judged, cases);
    }
  }
  block_valid_cells(runtime(), cases);
  // Each cell's C snippet: the same tensor offered to the plugin's consume
  // in a program of its own.
  SnippetTarget target = snippet_target(plugin_spec().path);
  add_snippets(runtime().inventory(), cases, [&](const CaseSpec& spec, const DeviceInfo& device) {
    const auto* consume = dynamic_cast<const ConsumeCase*>(spec.details.get());
    if (consume == nullptr) return std::string();
    return plugin_consume_snippet(target, consume->shape.name, facts::to_string(consume->kind),
                                  device.dlpack_device_id());
  });
  return cases;
}

CaseResult ConsumerCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                      const runtime::DeviceInfo& device) {
  return run_consume(session, spec, device);
}

}  // namespace dlpack_usm::suite
