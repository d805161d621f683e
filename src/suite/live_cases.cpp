#include "suite/live_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/round_trip.hpp"
#include "suite/live_matrix.hpp"
#include "suite/live_negative_cases.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

CaseSpec round_trip_case(const DeviceInfo& device, UsmKind kind, const std::string& dtype,
                         const std::string& layout, const std::string& version, bool read_only) {
  std::string id =
      fmt::format("live/{}/{}/{}/{}/{}{}", device.selector_name, facts::to_string(kind), dtype,
                  layout, version, read_only ? "/read-only" : "");
  return {id,
          "live",
          device.selector_name,
          {},
          {{"case", "round-trip"},
           {"kind", facts::to_string(kind)},
           {"dtype", dtype},
           {"layout", layout},
           {"version", version},
           {"read_only", read_only}}};
}

// A sub-device the platform's default context cannot hold (SYCL's OpenCL
// backend): its device and shared USM lives in a context of its own, which
// the exporter must refuse; host USM, which belongs to no device, still
// round-trips through the default context.
bool own_context_case(const DeviceInfo& device, UsmKind kind, bool default_context_holds,
                      std::vector<CaseSpec>& cases) {
  if (default_context_holds || kind == UsmKind::host) return false;
  cases.push_back(
      {fmt::format("live/{}/{}/own-context", device.selector_name, facts::to_string(kind)),
       "live",
       device.selector_name,
       {std::string(kOwnContextRule)},
       {{"case", "own-context"}, {"kind", facts::to_string(kind)}}});
  return true;
}

void add_live_device_cases(const DeviceInfo& device, bool full_matrix, bool default_context_holds,
                           std::vector<CaseSpec>& cases) {
  if (!device.usm) {
    cases.push_back({fmt::format("live/{}/usm", device.selector_name),
                     "live",
                     device.selector_name,
                     {},
                     {{"case", "not-supported"},
                      {"reason", "the device has no cl_intel_unified_shared_memory"}}});
    return;
  }
  for (UsmKind kind : kLiveKinds) {
    if (!kind_supported(device, kind)) {
      cases.push_back(
          {fmt::format("live/{}/{}", device.selector_name, facts::to_string(kind)),
           "live",
           device.selector_name,
           {},
           {{"case", "not-supported"},
            {"reason", fmt::format("the device cannot allocate {} USM", facts::to_string(kind))}}});
      continue;
    }
    if (own_context_case(device, kind, default_context_holds, cases)) continue;
    if (!full_matrix) {
      // A sub-device proves that export names its parent: one case a kind.
      cases.push_back(round_trip_case(device, kind, "float32", "C", "1.3", false));
      continue;
    }
    for (const char* dtype : kLiveDtypes) {
      for (const char* layout : kLiveLayouts) {
        for (const char* version : kLiveVersions) {
          cases.push_back(round_trip_case(device, kind, dtype, layout, version, false));
        }
      }
      // READ_ONLY exists only in versioned tensors.
      cases.push_back(round_trip_case(device, kind, dtype, "C", "1.0", true));
      cases.push_back(round_trip_case(device, kind, dtype, "C", "1.3", true));
    }
  }
}

CaseResult run_round_trip_case(runtime::Runtime& runtime, const DeviceInfo& device,
                               const nlohmann::json& params) {
  exchange::RoundTripRequest request;
  request.device = device.ref;
  request.kind = *facts::parse_usm_kind(params["kind"].get<std::string>());
  request.dtype = *dl::parse_dtype(params["dtype"].get<std::string>());
  std::string layout = params["layout"];
  request.shape = live_shape(layout);
  request.order = live_order(layout);
  request.options.max_version = live_version(params["version"].get<std::string>());
  request.options.read_only = params["read_only"].get<bool>();

  exchange::RoundTripReport report = exchange::run_round_trip(runtime, request);
  CaseResult result;
  for (const auto* findings : {&report.export_findings, &report.import_findings}) {
    for (const rules::Finding& finding : *findings) result.rule_ids.push_back(finding.rule_id);
  }
  if (report.ok()) {
    result.outcome = Outcome::pass;
    result.message = fmt::format(
        "{} elements read back in logical order from data 0x{:x} (zero copy), "
        "device_id {}",
        report.elements_checked, report.imported_data, report.expected_device_id);
    return result;
  }
  result.outcome = Outcome::fail;
  if (report.refused_at) {
    result.message = fmt::format("{} refused the tensor: {}", *report.refused_at, report.refusal);
    for (const std::string& id : report.refusal_rule_ids) result.rule_ids.push_back(id);
  } else {
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
    result.message = fmt::format("{}", fmt::join(problems, "; "));
  }
  return result;
}

}  // namespace

std::vector<CaseSpec> LiveCaseSource::cases() {
  std::vector<CaseSpec> cases;
  for (const runtime::PlatformInfo& platform : runtime_().inventory().platforms) {
    for (const DeviceInfo& root : platform.devices) {
      add_live_device_cases(root, true, true, cases);
      for (const DeviceInfo& sub : root.sub_devices) {
        add_live_device_cases(sub, false, runtime_().default_context_holds(sub.ref), cases);
      }
      if (root.usm) {
        for (const NegativeCase& negative : negative_cases()) {
          cases.push_back({fmt::format("live/{}/negative/{}", root.selector_name, negative.name),
                           "live",
                           root.selector_name,
                           {std::string(negative.rule_id)},
                           {{"case", "negative"}, {"name", negative.name}}});
        }
      }
    }
  }
  return cases;
}

CaseResult LiveCaseSource::run(const CaseSpec& spec) {
  runtime::Runtime& runtime = runtime_();
  const DeviceInfo* device = runtime.inventory().find(spec.device);
  if (device == nullptr) {
    return {spec.id, Outcome::error, fmt::format("device {} is gone", spec.device), {}, 0, 1,
            {},      Verdict::ok};
  }
  std::string what = spec.params["case"];
  if (what == "not-supported") {
    return {spec.id, Outcome::not_supported, spec.params["reason"], {}, 0, 1, {}, Verdict::ok};
  }
  if (what == "negative") return run_negative_case(runtime, *device, spec.params["name"]);
  if (what == "own-context") {
    return run_own_context_case(runtime, *device,
                                *facts::parse_usm_kind(spec.params["kind"].get<std::string>()));
  }
  CaseResult result = run_round_trip_case(runtime, *device, spec.params);
  result.id = spec.id;
  return result;
}

}  // namespace dlpack_usm::suite
