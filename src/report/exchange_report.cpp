#include "report/exchange_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "capsule/capsule_file.hpp"
#include "dlpack/names.hpp"
#include "facts/derived.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/dims_text.hpp"
#include "report/findings_report.hpp"

namespace dlpack_usm::report {
namespace {

using exchange::RoundTripReport;
using nlohmann::ordered_json;

std::string device_ref_text(const runtime::DeviceRef& ref) {
  return ref.sub_index ? fmt::format("root {}, sub-device {}", ref.root_index, *ref.sub_index)
                       : fmt::format("root {}", ref.root_index);
}

std::string version_text(const facts::TensorFacts& tensor) {
  return tensor.abi == facts::Abi::legacy ? "legacy DLManagedTensor (no version)"
                                          : fmt::format("DLManagedTensorVersioned {}.{}",
                                                        tensor.version.major, tensor.version.minor);
}

// The capsule, field by field, as the consumer receives it: the same dump
// `capsule dump` prints, indented under the export step.
std::string capsule_text(const facts::TensorFacts& tensor) {
  std::string dump = capsule_dump_to_text(build_capsule_dump("", {tensor}));
  std::string text;
  std::size_t start = 0;
  while (start < dump.size()) {
    std::size_t end = dump.find('\n', start);
    if (end == std::string::npos) end = dump.size();
    text += "   " + dump.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return text;
}

std::string findings_text(const std::vector<rules::Finding>& findings) {
  if (findings.empty()) return "no findings";
  std::string text = fmt::format("{} finding(s), none an error:", findings.size());
  for (const rules::Finding& finding : findings) {
    text += fmt::format("\n     {} {} ({}): {}", rules::to_string(finding.severity),
                        finding.rule_id, finding.field, finding.message);
  }
  return text;
}

// One shape for a finding in every JSON output (findings_report.hpp): the
// rule id is "rule_id" everywhere.
ordered_json findings_json(const std::vector<rules::Finding>& findings) {
  ordered_json list = ordered_json::array();
  for (const rules::Finding& finding : findings) list.push_back(finding_to_json(finding));
  return list;
}

ordered_json device_ref_json(const runtime::DeviceRef& ref) {
  return {{"root_index", ref.root_index},
          {"sub_device_index", ref.sub_index ? ordered_json(*ref.sub_index) : ordered_json()}};
}

std::string yes_no(bool value) {
  return value ? "yes" : "NO";
}

}  // namespace

std::string exchange_to_text(const RoundTripReport& report) {
  const auto& request = report.request;
  std::string out =
      fmt::format("exchange on {} ({}): kDLOneAPI device_id {}\n\n", report.device_name,
                  report.device_description, report.expected_device_id);
  out += fmt::format(
      "1. allocate  {} USM, {} bytes at {:#x}, in the default context of its platform\n",
      facts::to_string(request.kind), report.allocation_bytes, report.allocation_address);
  out += fmt::format(
      "2. fill      {} bytes of the pattern written through the device (clEnqueueMemcpyINTEL); "
      "{} {} elements, order {}\n",
      report.bytes_written, dims_text(report.layout.shape), dl::dtype_display(request.dtype),
      exchange::to_string(request.order));
  if (!report.exported) {
    out += fmt::format("3. export    REFUSED: {}\n", report.refusal);
    return out + "\nresult: FAILED (export refused)\n";
  }
  out += fmt::format("3. export    {} for max_version {}; {}\n", version_text(*report.exported),
                     dl::to_string(request.options.max_version),
                     findings_text(report.export_findings));
  out += capsule_text(*report.exported);
  if (!report.placement) {
    out += fmt::format("4. import    REFUSED: {}\n", report.refusal);
    return out + "\nresult: FAILED (import refused)\n";
  }
  const exchange::ImportedPlacement& placement = *report.placement;
  out += fmt::format(
      "4. import    device_id {} -> {}; default context of platform {}; USM {}; owner {}; {}; "
      "{}\n",
      report.exported->device_id, device_ref_text(placement.root_device),
      placement.context.platform_index, facts::to_string(placement.usm_kind),
      placement.owner_device ? device_ref_text(*placement.owner_device) : "none (host USM)",
      report.writable ? "writable" : "read-only", findings_text(report.import_findings));
  out += fmt::format("5. verify    pointer identity (zero copy): {} ({:#x} {} {:#x})\n",
                     yes_no(report.pointer_identity), report.imported_data,
                     report.pointer_identity ? "==" : "!=", report.allocation_address);
  out += fmt::format("            device_id is the root of the allocating device: {}\n",
                     yes_no(report.device_id_matches));
  out += fmt::format(
      "            elements read back in logical order: {} checked, {} wrong{}\n",
      report.elements_checked, report.mismatches,
      report.first_mismatch ? fmt::format(" (first at position {})", *report.first_mismatch) : "");
  out += fmt::format("            the deleter released the allocation reference: {}\n",
                     yes_no(report.deleter_released_allocation));
  return out + fmt::format("\nresult: {}\n", report.ok() ? "ok" : "FAILED");
}

ordered_json exchange_to_json(const RoundTripReport& report) {
  const auto& request = report.request;
  ordered_json json;
  json["ok"] = report.ok();
  json["device"] = {{"selector", report.device_name},
                    {"name", report.device_description},
                    {"ref", device_ref_json(request.device)},
                    {"dlpack_device_id", report.expected_device_id}};
  json["request"] = {{"usm", facts::to_string(request.kind)},
                     {"dtype", dl::dtype_display(request.dtype)},
                     {"shape", request.shape},
                     {"order", exchange::to_string(request.order)},
                     {"max_version", dl::to_string(request.options.max_version)},
                     {"read_only", request.options.read_only}};
  json["allocate"] = {{"address", fmt::format("{:#x}", report.allocation_address)},
                      {"bytes", report.allocation_bytes},
                      {"strides", report.layout.strides},
                      {"byte_offset", report.layout.byte_offset}};
  json["fill"] = {{"bytes_written", report.bytes_written}};
  ordered_json refusal = report.refused_at ? ordered_json{{"step", *report.refused_at},
                                                          {"message", report.refusal},
                                                          {"hint", report.refusal_hint}}
                                           : ordered_json();
  json["refused"] = refusal;
  if (!report.exported) return json;
  json["export"] = {
      {"capsule", capsule::to_capsule_json(*report.exported)},
      {"dump", capsule_dump_to_json(build_capsule_dump("", {*report.exported}))["tensors"][0]},
      {"findings", findings_json(report.export_findings)}};
  if (!report.placement) return json;
  const exchange::ImportedPlacement& placement = *report.placement;
  json["import"] = {
      {"root_device", device_ref_json(placement.root_device)},
      {"owner_device",
       placement.owner_device ? device_ref_json(*placement.owner_device) : ordered_json()},
      {"platform_index", placement.context.platform_index},
      {"usm", facts::to_string(placement.usm_kind)},
      {"writable", report.writable},
      {"findings", findings_json(report.import_findings)}};
  json["verify"] = {{"pointer_identity", report.pointer_identity},
                    {"imported_data", fmt::format("{:#x}", report.imported_data)},
                    {"device_id_matches", report.device_id_matches},
                    {"elements_checked", report.elements_checked},
                    {"mismatches", report.mismatches},
                    {"first_mismatch",
                     report.first_mismatch ? ordered_json(*report.first_mismatch) : ordered_json()},
                    {"deleter_released_allocation", report.deleter_released_allocation}};
  return json;
}

}  // namespace dlpack_usm::report
