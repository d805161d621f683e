#include "report/exchange_report.hpp"

#include <fmt/format.h>

#include "capsule/capsule_file.hpp"
#include "dlpack/names.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/dims_text.hpp"
#include "report/envelope.hpp"
#include "report/findings_report.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

using exchange::RoundTripReport;

std::string device_ref_text(const runtime::DeviceRef& ref) {
  return ref.sub_index ? fmt::format("root {}, sub-device {}", ref.root_index, *ref.sub_index)
                       : fmt::format("root {}", ref.root_index);
}

std::string version_text(const facts::TensorFacts& tensor) {
  return tensor.abi == facts::Abi::legacy ? "legacy DLManagedTensor (no version)"
                                          : fmt::format("DLManagedTensorVersioned {}.{}",
                                                        tensor.version.major, tensor.version.minor);
}

// The findings of a step: counted at the end of its line of text...
std::string step_findings_text(const std::vector<rules::Finding>& findings) {
  if (findings.empty()) return "no findings";
  return fmt::format("{} finding(s), none an error:", findings.size());
}

// ... and a line each under it (a line of text is one line: the printer
// escapes the newlines of what it is given).
void print_step_finding_lines(Printer& printer, const std::vector<rules::Finding>& findings) {
  for (const rules::Finding& finding : findings) {
    printer.line(fmt::format("     {} {} ({}): {}", rules::to_string(finding.severity),
                             finding.rule_id, finding.field, finding.message));
  }
}

// For machines, in the shape of every other output's findings; text has
// them in the step's line.
void print_step_findings(Printer& printer, const std::vector<rules::Finding>& findings) {
  TextView hidden;
  hidden.hidden = true;
  ListScope list(printer, "findings", hidden);
  for (const rules::Finding& finding : findings) {
    ObjectScope object(printer, {});
    print_finding(printer, finding);
  }
}

Value device_ref_value(const runtime::DeviceRef& ref) {
  return {{"root_index", ref.root_index},
          {"sub_device_index", ref.sub_index ? Value(*ref.sub_index) : Value()}};
}

std::string yes_no(bool value) {
  return value ? "yes" : "NO";
}

void print_refusal(Printer& printer, const RoundTripReport& report, std::string_view step_line,
                   std::string_view verdict) {
  printer.line(fmt::format("{}REFUSED: {}", step_line, report.refusal));
  printer.line("");
  printer.line(fmt::format("result: FAILED ({})", verdict));
}

void print_request(Printer& printer, const RoundTripReport& report) {
  const auto& request = report.request;
  printer.data("ok", report.ok());
  printer.data("device", {{"selector", report.device_name},
                          {"name", report.device_description},
                          {"ref", device_ref_value(request.device)},
                          {"dlpack_device_id", report.expected_device_id}});
  printer.line(fmt::format("exchange on {} ({}): kDLOneAPI device_id {}", report.device_name,
                           report.device_description, report.expected_device_id));
  printer.line("");
  printer.data("request", {{"usm", facts::to_string(request.kind)},
                           {"dtype", dlpack::dtype_display(request.dtype)},
                           {"shape", request.shape},
                           {"order", exchange::to_string(request.order)},
                           {"max_version", dlpack::to_string(request.options.max_version)},
                           {"read_only", request.options.read_only}});
}

void print_allocation(Printer& printer, const RoundTripReport& report) {
  const auto& request = report.request;
  printer.data("allocate", {{"address", fmt::format("{:#x}", report.allocation_address)},
                            {"bytes", report.allocation_bytes},
                            {"strides", report.layout.strides},
                            {"byte_offset", report.layout.byte_offset}});
  printer.line(fmt::format(
      "1. allocate  {} USM, {} bytes at {:#x}, in the default context of its platform ({})",
      facts::to_string(request.kind), report.allocation_bytes, report.allocation_address,
      report.allocate_call));
  printer.data("fill", {{"bytes_written", report.bytes_written}});
  printer.line(fmt::format(
      "2. fill      {} bytes of the pattern written through the device ({}); {} {} elements, "
      "order {}",
      report.bytes_written, report.copy_call, dims_text(report.layout.shape),
      dlpack::dtype_display(request.dtype), exchange::to_string(request.order)));
  printer.data("refused", report.refused_at ? Value{{"step", *report.refused_at},
                                                    {"message", report.refusal},
                                                    {"hint", report.refusal_hint}}
                                            : Value());
}

// The capsule, field by field, as the consumer receives it: the same dump
// `capsule dump` prints, indented under the export step.
void print_export(Printer& printer, const RoundTripReport& report) {
  const facts::TensorFacts& exported = *report.exported;
  printer.line(fmt::format("3. export    {} for max_version {}; {}", version_text(exported),
                           dlpack::to_string(report.request.options.max_version),
                           step_findings_text(report.export_findings)));
  print_step_finding_lines(printer, report.export_findings);
  TextView under_step;
  under_step.indent = 3;
  ObjectScope scope(printer, "export", under_step);
  printer.data("capsule", capsule::to_capsule_json(exported));
  print_tensor_dump(printer, "dump", dump_tensor(exported));
  print_step_findings(printer, report.export_findings);
}

void print_import(Printer& printer, const RoundTripReport& report) {
  const exchange::ImportedPlacement& placement = *report.placement;
  printer.line(fmt::format(
      "4. import    device_id {} -> {}; default context of platform {}; USM {}; owner {}; {}; {}",
      report.exported->device_id, device_ref_text(placement.root_device),
      placement.context.platform_index, facts::to_string(placement.usm_kind),
      placement.owner_device ? device_ref_text(*placement.owner_device) : "none (host USM)",
      report.writable ? "writable" : "read-only", step_findings_text(report.import_findings)));
  print_step_finding_lines(printer, report.import_findings);
  ObjectScope scope(printer, "import");
  printer.data("root_device", device_ref_value(placement.root_device));
  printer.data("owner_device",
               placement.owner_device ? device_ref_value(*placement.owner_device) : Value());
  printer.data("platform_index", placement.context.platform_index);
  printer.data("usm", facts::to_string(placement.usm_kind));
  printer.data("writable", report.writable);
  print_step_findings(printer, report.import_findings);
}

void print_verification(Printer& printer, const RoundTripReport& report) {
  printer.data("verify",
               {{"pointer_identity", report.pointer_identity},
                {"imported_data", fmt::format("{:#x}", report.imported_data)},
                {"device_id_matches", report.device_id_matches},
                {"elements_checked", report.elements_checked},
                {"mismatches", report.mismatches},
                {"first_mismatch", report.first_mismatch ? Value(*report.first_mismatch) : Value()},
                {"deleter_released_allocation", report.deleter_released_allocation}});
  printer.line(fmt::format("5. verify    pointer identity (zero copy): {} ({:#x} {} {:#x})",
                           yes_no(report.pointer_identity), report.imported_data,
                           report.pointer_identity ? "==" : "!=", report.allocation_address));
  printer.line(fmt::format("            device_id is the root of the allocating device: {}",
                           yes_no(report.device_id_matches)));
  printer.line(fmt::format(
      "            elements read back in logical order: {} checked, {} wrong{}",
      report.elements_checked, report.mismatches,
      report.first_mismatch ? fmt::format(" (first at position {})", *report.first_mismatch) : ""));
  printer.line(fmt::format("            the deleter released the allocation reference: {}",
                           yes_no(report.deleter_released_allocation)));
}

}  // namespace

ExitCode decide_exit_code(const RoundTripReport& report) {
  return report.ok() ? ExitCode::ok : ExitCode::findings;
}

void print_exchange(Printer& printer, const RoundTripReport& report) {
  print_envelope(printer, kExchangeSchema);
  print_request(printer, report);
  print_allocation(printer, report);
  if (!report.exported) return print_refusal(printer, report, "3. export    ", "export refused");
  print_export(printer, report);
  if (!report.placement) return print_refusal(printer, report, "4. import    ", "import refused");
  print_import(printer, report);
  print_verification(printer, report);
  printer.line("");
  printer.line(fmt::format("result: {}", report.ok() ? "ok" : "FAILED"));
}

}  // namespace dlpack_usm::report
