#include "suite/cases/python/python_profile_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/python/python_profile_cells.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::suite {
namespace {

namespace ids = rules::ids;

}  // namespace

std::string dlpack_device_name(const nlohmann::json& device, const runtime::Inventory& inventory) {
  int type = device.at(0).get<int>();
  int id = device.at(1).get<int>();
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(type);
  if (known != nullptr && known->name == "kDLCPU") return "cpu";
  if (known != nullptr && known->name == "kDLOneAPI") {
    for (const auto& [platform, root] : inventory.roots()) {
      if (root.dlpack_device_id() == id) return root.selector_name;
    }
  }
  std::string short_name =
      known != nullptr ? std::string(known->short_name) : fmt::format("device-type-{}", type);
  return fmt::format("{}:{}", short_name, id);
}

namespace {

bool exports_somewhere(const nlohmann::json& entry) {
  auto device = entry.find("dlpack_device");
  return device != entry.end() && device->is_array() && device->size() == 2 &&
         (*device)[0].is_number_integer() && (*device)[1].is_number_integer();
}

std::string text_of(const nlohmann::json& entry, const char* key) {
  auto found = entry.find(key);
  return found != entry.end() && found->is_string() ? found->get<std::string>() : "";
}

}  // namespace

std::vector<LibraryDevice> profiled_devices(const nlohmann::json& description,
                                            const runtime::Inventory& inventory) {
  std::vector<LibraryDevice> devices;
  for (const nlohmann::json& entry : description.value("devices", nlohmann::json::array())) {
    if (!entry.is_object()) continue;
    LibraryDevice device{
        "", entry.value("index", 0), text_of(entry, "library_device"), text_of(entry, "memory"),
        {}, text_of(entry, "error")};
    if (!exports_somewhere(entry)) {
      device.name = fmt::format("library-device-{}", device.index);
      devices.push_back(std::move(device));
      continue;
    }
    device.name = dlpack_device_name(entry["dlpack_device"], inventory);
    auto same = std::find_if(devices.begin(), devices.end(),
                             [&device](const LibraryDevice& d) { return d.name == device.name; });
    if (same != devices.end()) {
      same->aliases.push_back(device.library_device);
    } else {
      devices.push_back(std::move(device));
    }
  }
  return devices;
}

namespace {

// The rows of the matrix an answer lies on: the base request's answer
// stands for its cell, the reference array's answers for their requests;
// another cell's answer to another request is a row of its own only where
// it differs from what its cell and its request give otherwise.
CasePlace answer_place(const LibraryDevice& device, const ProfileCellSpec& cell,
                       const ProfileRequest& request, bool base) {
  CasePlace place{Direction::producer, device.memory, {}, std::nullopt};
  if (base) place.lines.push_back({cell.axis, cell.value});
  if (cell.name == kReferenceCell) {
    place.lines.push_back({request.axis, request.value});
  } else if (!base) {
    place.off_line = MatrixLine{request.axis, fmt::format("{} on {}", request.value, cell.name)};
  }
  return place;
}

nlohmann::json request_json(const ProfileRequest& request) {
  return {{"id", request.id()},
          {"axis", request.axis},
          {"value", request.value},
          {"keywords", request.keywords}};
}

CaseSpec answer_case(const PythonTarget& target, const LibraryDevice& device,
                     const ProfileCellSpec& cell, const ProfileRequest& request, bool base) {
  CaseSpec spec = python_case_spec(
      target,
      fmt::format("{}/producer/{}/{}/{}", target.label(), device.name, cell.name, request.id()),
      "python-producer");
  spec.device = device.name;
  spec.rules = {std::string(ids::kPluginCrash), std::string(ids::kPluginHang)};
  spec.outcome_from_findings = true;
  // The library's own: another library's crash on the same cell is not its.
  spec.setup_group = fmt::format("{}/{}/{}", target.worker_key(), device.name, cell.name);
  spec.cell = cell.name;
  spec.crash_rule = std::string(ids::kPluginCrash);
  spec.timeout_rule = std::string(ids::kPluginHang);
  spec.place = answer_place(device, cell, request, base);
  spec.details = std::make_shared<const PythonCase>(
      target, nlohmann::json{{"kind", "produce"},
                             {"device_index", device.index},
                             {"cell", cell.name},
                             {"cell_axis", cell.axis},
                             {"cell_value", cell.value},
                             {"request", request_json(request)},
                             {"base", request_json(profile_requests().front())}});
  return spec;
}

// A device of the library no array could be made on: one case says why.
CaseSpec no_array_case(const PythonTarget& target, const LibraryDevice& device) {
  CaseSpec spec = python_case_spec(
      target, fmt::format("{}/producer/{}/array", target.label(), device.name), "python-producer");
  spec.details = std::make_shared<const NotSupportedCase>(
      fmt::format("no array could be made on the library's device {}: {}", device.library_device,
                  device.error));
  return spec;
}

}  // namespace

std::vector<CaseSpec> PythonProfileCaseSource::cases() {
  std::vector<CaseSpec> cases;
  for (const LibraryDevice& device : profiled_devices(description_, runtime_().inventory())) {
    if (!device.error.empty() && device.memory.empty()) {
      cases.push_back(no_array_case(target_, device));
      continue;
    }
    for (const ProfileCellSpec& cell : profile_cells()) {
      bool base = true;
      for (const ProfileRequest& request : profile_requests()) {
        cases.push_back(answer_case(target_, device, cell, request, base));
        base = false;
      }
      if (cell.name != kReferenceCell) continue;
      for (const ProfileRequest& request : copy_oracle_requests()) {
        cases.push_back(answer_case(target_, device, cell, request, false));
      }
    }
  }
  return cases;
}

CaseResult PythonProfileCaseSource::run(const CaseSpec& spec) {
  refuse_run_outside_python(spec);
}

}  // namespace dlpack_usm::suite
