#include "suite/cases/live/live_cases.hpp"

#include <set>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/round_trip.hpp"
#include "matrix/live_matrix.hpp"
#include "suite/cases/live/live_negative_cases.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

// A live case: a round trip of one matrix tensor, the refusal of memory in
// a sub-device's own context, or a negative case (live_negative_cases.hpp).
struct LiveCase final : CaseDetails {
  enum class What { round_trip, own_context, negative };
  LiveCase(What what_, matrix::MatrixTensor tensor_, std::string negative_name_ = {})
      : what(what_), tensor(std::move(tensor_)), negative_name(std::move(negative_name_)) {}
  What what;
  matrix::MatrixTensor tensor;  // round_trip; own_context uses its kind
  std::string negative_name;    // negative
};

// Every kind's round trip checks the device_id export took from the
// runtime's owner answer (host USM too, where the runtime names an owner),
// so a wrong answer blocks them all.
CaseSpec round_trip_case(const DeviceInfo& device, const matrix::MatrixTensor& tensor,
                         const OwnerAnswerBlocks& blocks) {
  std::string id = fmt::format("live/{}/{}/{}/{}/{}{}", device.selector_name,
                               facts::to_string(tensor.kind), tensor.dtype, tensor.layout,
                               tensor.version, tensor.read_only ? "/read-only" : "");
  CaseSpec spec{id,
                "live",
                device.selector_name,
                {},
                std::make_shared<const LiveCase>(LiveCase::What::round_trip, tensor)};
  blocks.block(spec);
  return spec;
}

CaseSpec not_supported_case(const DeviceInfo& device, std::string id, std::string reason) {
  return {std::move(id),
          "live",
          device.selector_name,
          {},
          std::make_shared<const NotSupportedCase>(std::move(reason))};
}

// A sub-device the platform's default context cannot hold (SYCL's OpenCL
// backend): its device and shared USM lives in a context of its own, which
// the exporter must refuse; host USM, which belongs to no device, still
// round-trips through the default context.
bool own_context_case(const DeviceInfo& device, UsmKind kind, bool default_context_holds,
                      std::vector<CaseSpec>& cases) {
  if (default_context_holds || kind == UsmKind::host) return false;
  matrix::MatrixTensor tensor;
  tensor.kind = kind;
  cases.push_back(
      {fmt::format("live/{}/{}/own-context", device.selector_name, facts::to_string(kind)),
       "live",
       device.selector_name,
       {std::string(kOwnContextRule)},
       std::make_shared<const LiveCase>(LiveCase::What::own_context, tensor)});
  return true;
}

// The live cases, in the order the walk of the matrix visits them: a round
// trip per tensor, a not-supported case where USM or a kind is missing, the
// own-context case where a sub-device's memory needs a context of its own,
// and the negative cases after each root device.
class LiveCaseList final : public matrix::LiveMatrixVisitor {
 public:
  LiveCaseList(runtime::Runtime& runtime, const OwnerAnswerBlocks& blocks)
      : runtime_(runtime), blocks_(blocks) {}

  void device_begins(const DeviceInfo& device, bool sub_device) override {
    default_context_holds_ = !sub_device || runtime_.default_context_holds(device.ref);
  }
  void no_usm(const DeviceInfo& device) override {
    cases.push_back(not_supported_case(device, fmt::format("live/{}/usm", device.selector_name),
                                       "the device has no cl_intel_unified_shared_memory"));
  }
  void kind_unsupported(const DeviceInfo& device, UsmKind kind) override {
    cases.push_back(not_supported_case(
        device, fmt::format("live/{}/{}", device.selector_name, facts::to_string(kind)),
        fmt::format("the device cannot allocate {} USM", facts::to_string(kind))));
  }
  bool kind_begins(const DeviceInfo& device, UsmKind kind) override {
    return !own_context_case(device, kind, default_context_holds_, cases);
  }
  void tensor(const DeviceInfo& device, const matrix::MatrixTensor& tensor) override {
    cases.push_back(round_trip_case(device, tensor, blocks_));
  }
  void root_done(const DeviceInfo& root) override {
    if (!root.usm) return;
    for (const NegativeCase& negative : negative_cases()) {
      cases.push_back(
          {fmt::format("live/{}/negative/{}", root.selector_name, negative.name),
           "live",
           root.selector_name,
           {std::string(negative.rule_id)},
           std::make_shared<const LiveCase>(LiveCase::What::negative, matrix::MatrixTensor{},
                                            std::string(negative.name))});
    }
  }

  std::vector<CaseSpec> cases;

 private:
  runtime::Runtime& runtime_;
  const OwnerAnswerBlocks& blocks_;
  bool default_context_holds_ = true;
};

// READ_ONLY exists only in versioned tensors.
constexpr const char* kLiveReadOnlyVersions[] = {"1.0", "1.3"};

exchange::RoundTripRequest round_trip_request(const DeviceInfo& device,
                                              const matrix::MatrixTensor& tensor) {
  exchange::RoundTripRequest request;
  request.device = device.ref;
  request.kind = tensor.kind;
  request.dtype = *dlpack::parse_dtype(tensor.dtype);
  request.shape = matrix::live_shape(tensor.layout);
  request.order = matrix::live_order(tensor.layout);
  request.options.max_version = matrix::live_version(tensor.version);
  request.options.read_only = tensor.read_only;
  return request;
}

// The findings of export and import. The tool's own export is judged as
// any producer's: a warning of the rules makes the case warn, an error
// fails it.
CaseFindings round_trip_findings(const exchange::RoundTripReport& report) {
  CaseFindings found;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto* findings : {&report.export_findings, &report.import_findings}) {
    for (const rules::Finding& finding : *findings) {
      // Infos are worth knowing only; one tensor read twice (at export and
      // at import) gives its findings once.
      if (finding.severity == rules::Severity::info ||
          !seen.insert({finding.rule_id, finding.field}).second) {
        continue;
      }
      found.add(finding,
                fmt::format("rule {} ({}): {}", finding.rule_id, finding.field, finding.message));
    }
  }
  return found;
}

// What went wrong in a round trip that no step refused.
std::string round_trip_problems(const exchange::RoundTripReport& report) {
  std::vector<std::string> problems;
  if (!report.pointer_identity)
    problems.push_back("the imported data pointer is not the allocation's (a copy?)");
  if (!report.device_id_matches) {
    problems.push_back(
        fmt::format("device_id is not {}, the root index", report.expected_device_id));
  }
  if (report.mismatches > 0) {
    problems.push_back(fmt::format("{} of {} elements differ, the first at logical index {}",
                                   report.mismatches, report.elements_checked,
                                   report.first_mismatch.value_or(0)));
  }
  if (!report.deleter_released_allocation)
    problems.push_back("the deleter did not release the allocation");
  return fmt::format("{}", fmt::join(problems, "; "));
}

CaseResult run_round_trip_case(runtime::Runtime& runtime, const DeviceInfo& device,
                               const matrix::MatrixTensor& tensor) {
  exchange::RoundTripReport report =
      exchange::run_round_trip(runtime, round_trip_request(device, tensor));
  CaseFindings found = round_trip_findings(report);
  if (report.ok()) {
    return found.result(
        "", fmt::format("{} elements read back in logical order from data 0x{:x} (zero copy), "
                        "device_id {}",
                        report.elements_checked, report.imported_data, report.expected_device_id));
  }
  CaseResult result = found.result("", "");
  result.outcome = Outcome::fail;
  for (const std::string& id : report.refusal_rule_ids) {
    result.add_finding({id, catalog_severity(id), report.refusal});
  }
  result.message = report.refused_at ? fmt::format("{} refused the tensor: {}", *report.refused_at,
                                                   report.refusal)
                                     : round_trip_problems(report);
  // A failure without an error of the rules is the round trip's own.
  if (outcome_of(result.findings) != Outcome::fail) {
    result.add_finding({{}, rules::Severity::error, result.message});
  }
  return result;
}

}  // namespace

std::vector<CaseSpec> LiveCaseSource::cases() {
  OwnerAnswerBlocks blocks(runtime_());
  LiveCaseList list(runtime_(), blocks);
  matrix::walk_live_matrix(runtime_().inventory(), kLiveReadOnlyVersions, list);
  return std::move(list.cases);
}

CaseResult LiveCaseSource::run(const CaseSpec& spec) {
  runtime::Runtime& runtime = runtime_();
  const DeviceInfo* device = runtime.inventory().find(spec.device);
  if (device == nullptr) {
    return {spec.id, Outcome::error, fmt::format("device {} is gone", spec.device)};
  }
  if (const NotSupportedCase* not_supported = spec.not_supported()) {
    return not_supported_result(spec, *not_supported);
  }
  const LiveCase& live = spec.details_as<LiveCase>();
  switch (live.what) {
    case LiveCase::What::negative:
      return run_negative_case(runtime, *device, live.negative_name);
    case LiveCase::What::own_context:
      return run_own_context_case(runtime, *device, live.tensor.kind);
    case LiveCase::What::round_trip:
      break;
  }
  CaseResult result = run_round_trip_case(runtime, *device, live.tensor);
  result.id = spec.id;
  return result;
}

}  // namespace dlpack_usm::suite
