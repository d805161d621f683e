#include "report/inventory_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/envelope.hpp"

namespace dlpack_usm::report {
namespace {

using runtime::DeviceInfo;
using runtime::Inventory;
using runtime::PlatformInfo;
using runtime::UsmAccess;

// What each ordering model means; list-devices(1) says the same.
const char* ordering_explanation(const Inventory& inventory) {
  if (inventory.ordering_model == "sycl-get-devices") {
    return "SYCL's own sycl::device::get_devices() order, read through dpctl's C interface "
           "(Level Zero devices included): the definition of the kDLOneAPI device_id";
  }
  return "platforms in ICD-loader order, root devices in platform order; this is "
         "sycl::device::get_devices() order only where no Level Zero device is visible";
}

// null: the runtime cannot say (a bit SYCL's aspects do not express).
Value bit_value(std::optional<bool> bit) {
  return bit ? Value(*bit) : Value(nullptr);
}

Value access_value(const UsmAccess& access) {
  return {{"access", bit_value(access.access)},
          {"atomic_access", bit_value(access.atomic_access)},
          {"concurrent_access", bit_value(access.concurrent_access)},
          {"concurrent_atomic_access", bit_value(access.concurrent_atomic_access)}};
}

Value optional_string(const std::optional<std::string>& text) {
  return text ? Value(*text) : Value(nullptr);
}

Value usm_value(const DeviceInfo& device) {
  if (!device.usm) return nullptr;
  return {{"host", access_value(device.usm->host)},
          {"device", access_value(device.usm->device)},
          {"single_device_shared", access_value(device.usm->single_device_shared)},
          {"cross_device_shared", access_value(device.usm->cross_device_shared)},
          {"shared_system", access_value(device.usm->shared_system)}};
}

std::string usm_summary(const DeviceInfo& device) {
  if (!device.usm) return "no USM";
  const auto& usm = *device.usm;
  return fmt::format("host:{} device:{} shared:{} cross:{} system:{}", usm_access_code(usm.host),
                     usm_access_code(usm.device), usm_access_code(usm.single_device_shared),
                     usm_access_code(usm.cross_device_shared), usm_access_code(usm.shared_system));
}

// On SYCL the OpenCL version column gives way to the device's SYCL backend.
std::vector<Column> device_columns(bool sycl) {
  return {{"ID", "dlpack_device_id"},
          {"DEVICE", "selector"},
          {"TYPE", "type"},
          {"NAME", "name"},
          {"DRIVER", "driver_version"},
          sycl ? Column{"BACKEND", "backend"} : Column{"OPENCL", "opencl_version"},
          {"CU", "compute_units"},
          {"USM", "usm"}};
}

// What the runtime answered when asked who owns an allocation on `device`;
// null where it was not asked (no USM of its own, outside the default
// context, or list-devices ran without asking).
Value owner_answer_value(const runtime::OwnerAnswerCheck* check, const DeviceInfo& device) {
  if (check == nullptr) return nullptr;
  for (const rules::OwnerProbe& probe : check->answers.probes) {
    if (probe.allocated_on.name != device.selector_name) continue;
    return {
        {"kind", facts::to_string(probe.kind)},
        {"answered", probe.answered ? Value(probe.answered->name) : Value(nullptr)},
        {"answered_device_id", probe.answered ? Value(probe.answered->device_id) : Value(nullptr)},
        {"right", rules::answered_right(probe)}};
  }
  return nullptr;
}

// The platform's DLP-RUNTIME-OWNER-ANSWER: which query was asked and the
// finding, if the runtime answered wrong; named once under the table.
void print_owner_query(Printer& printer, const runtime::OwnerAnswerCheck* check) {
  if (check == nullptr) {
    printer.data("owner_query", nullptr);
    return;
  }
  const std::optional<rules::Finding>& finding = check->verdict.finding;
  printer.data("owner_query",
               {{"query", check->answers.query},
                {"asked", check->answers.probes.size()},
                {"answered_wrong", check->verdict.wrong.size()},
                {"finding", finding ? Value{{"rule_id", finding->rule_id},
                                            {"severity", rules::to_string(finding->severity)},
                                            {"field", finding->field},
                                            {"message", finding->message}}
                                    : Value(nullptr)}});
  if (finding) {
    printer.line(fmt::format("{} {}: {}", rules::to_string(finding->severity), finding->rule_id,
                             finding->message));
  }
}

// A device and, for a root device, its sub-devices: rows that follow it in text.
void print_device(Printer& printer, const DeviceInfo& device,
                  const runtime::OwnerAnswerCheck* owner_check) {
  ObjectScope scope(printer, {});
  bool sub = device.ref.sub_index.has_value();
  printer.field("dlpack_device_id", device.dlpack_device_id(),
                sub ? fmt::format("({})", device.dlpack_device_id())
                    : std::to_string(device.dlpack_device_id()));
  printer.data("sub_device_index",
               device.ref.sub_index ? Value(*device.ref.sub_index) : Value(nullptr));
  printer.field("selector", device.selector_name,
                sub ? fmt::format("  {}", device.selector_name) : device.selector_name);
  printer.field("backend", device.backend, device.backend);
  printer.data("sycl_filter", optional_string(device.sycl_filter));
  printer.field("type", device.type, device.type);
  printer.field("name", device.name, device.name);
  printer.data("vendor", device.vendor);
  printer.field("driver_version", device.driver_version, device.driver_version);
  printer.field("opencl_version", device.opencl_version, device.opencl_version);
  printer.field("compute_units", device.compute_units, std::to_string(device.compute_units));
  printer.field("usm", usm_value(device), usm_summary(device));
  printer.data("owner_answer", owner_answer_value(owner_check, device));
  if (sub) return;
  printer.data("partition", {{"supported", device.partition_types},
                             {"used", device.partition_used.empty() ? Value(nullptr)
                                                                    : Value(device.partition_used)},
                             {"error", optional_string(device.partition_error)}});
  ListScope subs(printer, "sub_devices");
  for (const DeviceInfo& sub_device : device.sub_devices) {
    print_device(printer, sub_device, owner_check);
  }
}

// How each root device was partitioned, or why it was not: under the table.
void print_partitions(Printer& printer, const PlatformInfo& platform) {
  for (const DeviceInfo& device : platform.devices) {
    if (!device.partition_used.empty()) {
      printer.line(fmt::format("{}: {} sub-device(s) by partition '{}' (supported: {})",
                               device.selector_name, device.sub_devices.size(),
                               device.partition_used, fmt::join(device.partition_types, ", ")));
    }
    if (device.partition_error) {
      printer.line(fmt::format("{}: {}", device.selector_name, *device.partition_error));
    }
  }
}

void print_platform(Printer& printer, const PlatformInfo& platform, bool sycl,
                    const runtime::OwnerAnswerCheck* owner_check) {
  printer.line("");
  printer.line(fmt::format("platform {}: {} ({}), {}{}", platform.index, platform.name,
                           platform.vendor, platform.version,
                           platform.usm_extension ? ", cl_intel_unified_shared_memory" : ""));
  TextView indented;
  indented.indent = 2;
  ObjectScope scope(printer, {}, indented);
  printer.data("index", platform.index);
  printer.data("name", platform.name);
  printer.data("vendor", platform.vendor);
  printer.data("version", platform.version);
  printer.data("icd_suffix", platform.icd_suffix);
  printer.data("usm_extension", platform.usm_extension);
  printer.data("error", optional_string(platform.error));
  if (platform.error) printer.line(fmt::format("error: {}", *platform.error));
  if (platform.devices.empty()) printer.line("(no visible device)");
  {
    TextView table;
    table.columns = device_columns(sycl);
    ListScope devices(printer, "devices", table);
    for (const DeviceInfo& device : platform.devices) print_device(printer, device, owner_check);
  }
  print_partitions(printer, platform);
  print_owner_query(printer, owner_check);
}

}  // namespace

std::string usm_access_code(const UsmAccess& access) {
  const std::pair<std::optional<bool>, char> bits[] = {{access.access, 'A'},
                                                       {access.atomic_access, 'T'},
                                                       {access.concurrent_access, 'C'},
                                                       {access.concurrent_atomic_access, 'X'}};
  std::string code;
  for (const auto& [bit, letter] : bits) code += !bit ? '?' : *bit ? letter : '-';
  return code;
}

ExitCode decide_exit_code(const Inventory& inventory) {
  return inventory.problems.empty() ? ExitCode::ok : ExitCode::environment;
}

void print_inventory(Printer& printer, const Inventory& inventory,
                     const std::vector<runtime::OwnerAnswerCheck>& owner_answers) {
  // The same document stands alone (list-devices --json) and as the check
  // report's environment: it carries its own envelope in both.
  print_envelope(printer, kInventorySchema);
  printer.data("runtime", inventory.backend);
  printer.data("backend", inventory.backend);
  printer.data("ordering_model", {{"name", inventory.ordering_model},
                                  {"description", ordering_explanation(inventory)}});
  printer.data("root_device_count", inventory.root_device_count());
  printer.line(
      fmt::format("runtime {}; kDLOneAPI device ids: ordering model '{}' ({}); {} root device(s)",
                  inventory.backend, inventory.ordering_model, ordering_explanation(inventory),
                  inventory.root_device_count()));
  printer.data("selector", optional_string(inventory.selector));
  if (inventory.selector) {
    printer.line(fmt::format("filtered by ONEAPI_DEVICE_SELECTOR={}", *inventory.selector));
  }
  printer.data("warnings", inventory.warnings);
  printer.data("problems", inventory.problems);
  {
    ListScope platforms(printer, "platforms");
    for (const PlatformInfo& platform : inventory.platforms) {
      print_platform(printer, platform, inventory.backend == "sycl",
                     runtime::find_owner_answer_check(owner_answers, platform.index));
    }
  }
  printer.line("");
  printer.line("ID: kDLOneAPI device_id; a sub-device shows its parent's id in parentheses.");
  printer.line(
      "USM letters: A access, T atomic access, C concurrent access, X concurrent atomic "
      "access; '-' not supported; '?' unknown (a bit SYCL's aspects do not express).");
  printer.line(
      "shared = single-device shared, cross = cross-device shared, system = shared system.");
}

}  // namespace dlpack_usm::report
