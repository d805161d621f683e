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

// The same, in the few words of the summary's first line.
const char* ordering_summary(const Inventory& inventory) {
  if (inventory.ordering_model == "sycl-get-devices") return "SYCL's get_devices() order";
  return "ICD-loader order";
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
std::vector<Column> device_columns(bool sycl, InventoryDetail detail) {
  if (detail == InventoryDetail::summary) {
    return {{"ID", "dlpack_device_id", true},
            {"DEVICE", "selector", true},
            {"NAME", "name"},
            {"USM", "usm"},
            {"SUB-DEVICES", "partition"}};
  }
  return {{"ID", "dlpack_device_id", true},
          {"DEVICE", "selector", true},
          {"TYPE", "type"},
          {"NAME", "name"},
          {"DRIVER", "driver_version"},
          sycl ? Column{"BACKEND", "backend"} : Column{"OPENCL", "opencl_version"},
          {"CU", "compute_units"},
          {"SUB-DEVICES", "partition"},
          {"USM", "usm"}};
}

// How a root device was partitioned, or why not, in its row: ".0-.15 equally"
// (the sub-devices' names after the device's own), or with --verbose "16
// equally (offered: equally, by_counts)".
std::string partition_text(const DeviceInfo& device, InventoryDetail detail) {
  if (device.partition_error) return fmt::format("none: {}", *device.partition_error);
  std::size_t count = device.sub_device_count();
  if (count == 0) return "none";
  if (detail == InventoryDetail::verbose) {
    return fmt::format("{} {} (offered: {})", count, device.partition_used,
                       fmt::join(device.partition_types, ", "));
  }
  std::string range = count == 1 ? ".0" : fmt::format(".0-.{}", count - 1);
  return fmt::format("{} {}", range, device.partition_used);
}

Value partition_value(const DeviceInfo& device) {
  return {{"supported", device.partition_types},
          {"used", device.partition_used.empty() ? Value(nullptr) : Value(device.partition_used)},
          {"error", optional_string(device.partition_error)}};
}

// In text, a sub-device's cell that says what its root device's says stays
// blank: a PoCL device's long name and driver once, not once per sub-device.
std::string unless_as_root(const std::string& shown, const std::string& roots_shown,
                           const DeviceInfo* root) {
  return root != nullptr && shown == roots_shown ? std::string() : shown;
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

// A device and, for a root device, its sub-devices: rows that follow it in
// text with --verbose, JSON only otherwise. `root`: the sub-device's root.
void print_device(Printer& printer, const DeviceInfo& device,
                  const runtime::OwnerAnswerCheck* owner_check, const DeviceInfo* root,
                  InventoryDetail detail) {
  ObjectScope scope(printer, {});
  bool verbose = detail == InventoryDetail::verbose;
  auto as_root = [root](const std::string& shown, std::string DeviceInfo::*member) {
    return unless_as_root(shown, root != nullptr ? root->*member : std::string(), root);
  };
  printer.field("dlpack_device_id", device.dlpack_device_id(),
                root != nullptr ? fmt::format("({})", device.dlpack_device_id())
                                : std::to_string(device.dlpack_device_id()));
  printer.data("sub_device_index",
               device.ref.sub_index ? Value(*device.ref.sub_index) : Value(nullptr));
  printer.field("selector", device.selector_name, device.selector_name);
  printer.field("backend", device.backend, as_root(device.backend, &DeviceInfo::backend));
  printer.data("sycl_filter", optional_string(device.sycl_filter));
  printer.field("type", device.type, as_root(device.type, &DeviceInfo::type));
  printer.field("name", device.name,
                verbose ? as_root(device.name, &DeviceInfo::name) : short_device_name(device.name));
  printer.data("vendor", device.vendor);
  printer.field("driver_version", device.driver_version,
                as_root(device.driver_version, &DeviceInfo::driver_version));
  printer.field("opencl_version", device.opencl_version,
                as_root(device.opencl_version, &DeviceInfo::opencl_version));
  printer.field("compute_units", device.compute_units, std::to_string(device.compute_units));
  printer.field("usm", usm_value(device),
                verbose ? unless_as_root(usm_summary(device),
                                         root != nullptr ? usm_summary(*root) : std::string(), root)
                        : usm_kinds(device));
  printer.data("owner_answer", owner_answer_value(owner_check, device));
  if (root != nullptr) return;
  printer.field("partition", partition_value(device), partition_text(device, detail));
  TextView sub_rows;
  sub_rows.hidden = !verbose;
  ListScope subs(printer, "sub_devices", sub_rows);
  for (const DeviceInfo& sub_device : device.sub_devices) {
    print_device(printer, sub_device, owner_check, &device, detail);
  }
}

std::string platform_heading(const PlatformInfo& platform, InventoryDetail detail) {
  if (detail == InventoryDetail::summary) {
    return fmt::format("platform {}: {}, {}", platform.index, platform.name, platform.version);
  }
  return fmt::format("platform {}: {} ({}), {}{}", platform.index, platform.name, platform.vendor,
                     platform.version,
                     platform.usm_extension ? ", cl_intel_unified_shared_memory" : "");
}

void print_platform(Printer& printer, const PlatformInfo& platform, bool sycl,
                    const runtime::OwnerAnswerCheck* owner_check, InventoryDetail detail) {
  printer.line("");
  printer.line(platform_heading(platform, detail));
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
    table.columns = device_columns(sycl, detail);
    // A device's name, driver and USM bits are what the command is for:
    // never cut, a record per device where the table does not fit.
    table.stack_when_too_wide = true;
    ListScope devices(printer, "devices", table);
    for (const DeviceInfo& device : platform.devices) {
      print_device(printer, device, owner_check, nullptr, detail);
    }
  }
  print_owner_query(printer, owner_check);
}

// What the columns mean, under the tables.
void print_legend(Printer& printer, InventoryDetail detail) {
  printer.line("");
  if (detail == InventoryDetail::summary) {
    printer.line(
        "ID: kDLOneAPI device_id. USM: the kinds of USM the device can allocate (shared: "
        "single-device shared, cross: cross-device shared, system: shared system; '?': the "
        "runtime cannot say). SUB-DEVICES: the suffixes their names add to the device's (.0-.1: "
        "DEVICE.0 and DEVICE.1) and the partition that made them. --verbose shows drivers, compute "
        "units, USM access "
        "bits and every sub-device.");
    return;
  }
  printer.line(
      "ID: kDLOneAPI device_id; a sub-device shows its parent's id in parentheses, and a blank "
      "cell (or no line) where it is as its root device.");
  printer.line(
      "USM letters: A access, T atomic access, C concurrent access, X concurrent atomic "
      "access; '-' not supported; '?' unknown (a bit SYCL's aspects do not express).");
  printer.line(
      "shared = single-device shared, cross = cross-device shared, system = shared system.");
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

std::string usm_kinds(const DeviceInfo& device) {
  if (!device.usm) return "no USM";
  const runtime::UsmCapabilities& usm = *device.usm;
  const std::pair<const UsmAccess&, const char*> kinds[] = {{usm.host, "host"},
                                                            {usm.device, "device"},
                                                            {usm.single_device_shared, "shared"},
                                                            {usm.cross_device_shared, "cross"},
                                                            {usm.shared_system, "system"}};
  std::string text;
  for (const auto& [access, name] : kinds) {
    if (access.access == false) continue;
    text += fmt::format("{}{}{}", text.empty() ? "" : " ", name, access.access ? "" : "?");
  }
  return text.empty() ? "none" : text;
}

std::string short_device_name(std::string_view name) {
  std::string text(name);
  for (std::string_view sign : {"(R)", "(r)", "(TM)", "(tm)"}) {
    for (std::size_t at = text.find(sign); at != std::string::npos; at = text.find(sign, at)) {
      text.erase(at, sign.size());
    }
  }
  std::string shown;
  for (char c : text) {
    if (c == ' ' && (shown.empty() || shown.back() == ' ')) continue;
    shown += c;
  }
  while (!shown.empty() && shown.back() == ' ') shown.pop_back();
  return shown;
}

void print_inventory(Printer& printer, const Inventory& inventory,
                     const std::vector<runtime::OwnerAnswerCheck>& owner_answers,
                     InventoryDetail detail) {
  // The same document stands alone (list-devices --json) and as the check
  // report's environment: it carries its own envelope in both.
  print_envelope(printer, kInventorySchema);
  printer.data("runtime", inventory.backend);
  printer.data("backend", inventory.backend);
  printer.data("ordering_model", {{"name", inventory.ordering_model},
                                  {"description", ordering_explanation(inventory)}});
  printer.data("root_device_count", inventory.root_device_count());
  if (detail == InventoryDetail::summary) {
    printer.line(fmt::format("runtime {}: kDLOneAPI device_id = position in {}; {} root device(s)",
                             inventory.backend, ordering_summary(inventory),
                             inventory.root_device_count()));
  } else {
    printer.line(
        fmt::format("runtime {}; kDLOneAPI device ids: ordering model '{}' ({}); {} root device(s)",
                    inventory.backend, inventory.ordering_model, ordering_explanation(inventory),
                    inventory.root_device_count()));
  }
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
                     runtime::find_owner_answer_check(owner_answers, platform.index), detail);
    }
  }
  print_legend(printer, detail);
}

}  // namespace dlpack_usm::report
