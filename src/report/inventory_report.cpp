#include "report/inventory_report.hpp"

#include <fmt/format.h>

#include "build_info.hpp"
#include "report/text_table.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;
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

ordered_json access_to_json(const UsmAccess& access) {
  return {{"access", access.access},
          {"atomic_access", access.atomic_access},
          {"concurrent_access", access.concurrent_access},
          {"concurrent_atomic_access", access.concurrent_atomic_access}};
}

ordered_json optional_string(const std::optional<std::string>& text) {
  return text ? ordered_json(*text) : ordered_json(nullptr);
}

ordered_json device_to_json(const DeviceInfo& device) {
  ordered_json json;
  json["dlpack_device_id"] = device.dlpack_device_id();
  json["sub_device_index"] =
      device.ref.sub_index ? ordered_json(*device.ref.sub_index) : ordered_json(nullptr);
  json["selector"] = device.selector_name;
  json["backend"] = device.backend;
  json["sycl_filter"] = optional_string(device.sycl_filter);
  json["type"] = device.type;
  json["name"] = device.name;
  json["vendor"] = device.vendor;
  json["driver_version"] = device.driver_version;
  json["opencl_version"] = device.opencl_version;
  json["compute_units"] = device.compute_units;
  if (device.usm) {
    json["usm"] = {{"host", access_to_json(device.usm->host)},
                   {"device", access_to_json(device.usm->device)},
                   {"single_device_shared", access_to_json(device.usm->single_device_shared)},
                   {"cross_device_shared", access_to_json(device.usm->cross_device_shared)},
                   {"shared_system", access_to_json(device.usm->shared_system)}};
  } else {
    json["usm"] = nullptr;
  }
  if (!device.ref.sub_index) {
    json["partition"] = {
        {"supported", device.partition_types},
        {"used", device.partition_used.empty() ? ordered_json(nullptr)
                                               : ordered_json(device.partition_used)},
        {"error", optional_string(device.partition_error)}};
    ordered_json subs = ordered_json::array();
    for (const DeviceInfo& sub : device.sub_devices) subs.push_back(device_to_json(sub));
    json["sub_devices"] = std::move(subs);
  }
  return json;
}

std::string usm_summary(const DeviceInfo& device) {
  if (!device.usm) return "no USM";
  const auto& usm = *device.usm;
  return fmt::format("host:{} device:{} shared:{} cross:{} system:{}", usm_access_code(usm.host),
                     usm_access_code(usm.device), usm_access_code(usm.single_device_shared),
                     usm_access_code(usm.cross_device_shared), usm_access_code(usm.shared_system));
}

// On SYCL the OpenCL version column gives way to the device's SYCL backend.
void add_device_row(TextTable& table, const DeviceInfo& device, bool sycl) {
  bool sub = device.ref.sub_index.has_value();
  table.add_row({sub ? fmt::format("({})", device.dlpack_device_id())
                     : std::to_string(device.dlpack_device_id()),
                 sub ? "  " + device.selector_name : device.selector_name, device.type, device.name,
                 device.driver_version, sycl ? device.backend : device.opencl_version,
                 std::to_string(device.compute_units), usm_summary(device)});
}

}  // namespace

std::string usm_access_code(const UsmAccess& access) {
  std::string code = "----";
  if (access.access) code[0] = 'A';
  if (access.atomic_access) code[1] = 'T';
  if (access.concurrent_access) code[2] = 'C';
  if (access.concurrent_atomic_access) code[3] = 'X';
  return code;
}

ordered_json inventory_to_json(const Inventory& inventory) {
  ordered_json json;
  json["tool"] = {{"name", "dlpack-usm"}, {"version", kToolVersion}};
  json["runtime"] = inventory.backend;
  json["backend"] = inventory.backend;
  json["ordering_model"] = {{"name", inventory.ordering_model},
                            {"description", ordering_explanation(inventory)}};
  json["root_device_count"] = inventory.root_device_count();
  json["selector"] = optional_string(inventory.selector);
  json["warnings"] = inventory.warnings;
  json["problems"] = inventory.problems;
  ordered_json platforms = ordered_json::array();
  for (const PlatformInfo& platform : inventory.platforms) {
    ordered_json devices = ordered_json::array();
    for (const DeviceInfo& device : platform.devices) devices.push_back(device_to_json(device));
    platforms.push_back({{"index", platform.index},
                         {"name", platform.name},
                         {"vendor", platform.vendor},
                         {"version", platform.version},
                         {"icd_suffix", platform.icd_suffix},
                         {"usm_extension", platform.usm_extension},
                         {"error", optional_string(platform.error)},
                         {"devices", std::move(devices)}});
  }
  json["platforms"] = std::move(platforms);
  return json;
}

std::string inventory_to_text(const Inventory& inventory) {
  std::string out =
      fmt::format("runtime {}; kDLOneAPI device ids: ordering model '{}' ({}); {} root device(s)\n",
                  inventory.backend, inventory.ordering_model, ordering_explanation(inventory),
                  inventory.root_device_count());
  if (inventory.selector) {
    out += fmt::format("filtered by ONEAPI_DEVICE_SELECTOR={}\n", *inventory.selector);
  }
  for (const PlatformInfo& platform : inventory.platforms) {
    out += fmt::format("\nplatform {}: {} ({}), {}{}\n", platform.index, platform.name,
                       platform.vendor, platform.version,
                       platform.usm_extension ? ", cl_intel_unified_shared_memory" : "");
    if (platform.error) out += fmt::format("  error: {}\n", *platform.error);
    if (platform.devices.empty()) {
      out += "  (no visible device)\n";
      continue;
    }
    bool sycl = inventory.backend == "sycl";
    TextTable table(
        {"ID", "DEVICE", "TYPE", "NAME", "DRIVER", sycl ? "BACKEND" : "OPENCL", "CU", "USM"});
    for (const DeviceInfo& device : platform.devices) {
      add_device_row(table, device, sycl);
      for (const DeviceInfo& sub : device.sub_devices) add_device_row(table, sub, sycl);
    }
    out += table.render("  ");
    for (const DeviceInfo& device : platform.devices) {
      if (!device.partition_used.empty()) {
        out += fmt::format("  {}: {} sub-device(s) by partition '{}' (supported: {})\n",
                           device.selector_name, device.sub_devices.size(), device.partition_used,
                           fmt::join(device.partition_types, ", "));
      }
      if (device.partition_error) {
        out += fmt::format("  {}: {}\n", device.selector_name, *device.partition_error);
      }
    }
  }
  out +=
      "\nID: kDLOneAPI device_id; a sub-device shows its parent's id in parentheses.\n"
      "USM letters: A access, T atomic access, C concurrent access, X concurrent atomic "
      "access; '-' not supported.\n"
      "shared = single-device shared, cross = cross-device shared, system = shared system.\n";
  return out;
}

}  // namespace dlpack_usm::report
