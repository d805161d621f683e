#include "suite/cases/python/python_handoff_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/python/python_profile_cases.hpp"
#include "suite/cases/python/python_profile_cells.hpp"
#include "suite/cases/python/python_snippet.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::suite {

namespace ids = rules::ids;

const std::vector<std::string>& handoff_remedies() {
  static const std::vector<std::string> remedies{"host-copy", "legacy-capsule"};
  return remedies;
}

PythonHandoffCaseSource::PythonHandoffCaseSource(std::function<runtime::Runtime&()> runtime,
                                                 PythonTarget target, nlohmann::json description)
    : runtime_(std::move(runtime)),
      target_(std::move(target)),
      description_(std::move(description)) {}

namespace {

// Where the tensor lies: a producer EXPR's is "given" (the worker says
// where it is); a MODULE's cell is made on one of its devices.
struct HandoffPlace {
  std::string device = "given";
  int device_index = 0;
  const ProfileCellSpec* cell = nullptr;  // null: EXPR's own tensor
};

CaseSpec handoff_case(const PythonTarget& target, const HandoffPlace& place,
                      const std::string& remedy) {
  std::string cell = place.cell != nullptr ? place.cell->name : "given";
  std::string id = place.cell != nullptr
                       ? fmt::format("{}/{}/{}/{}", target.label(), place.device, cell, remedy)
                       : fmt::format("{}/given/{}", target.label(), remedy);
  CaseSpec spec = python_case_spec(target, std::move(id), "python-handoff");
  spec.device = place.cell != nullptr ? place.device : std::string();
  // The emitted step is judged by the tensor rules, the others by the
  // consumer's (--rule selects by them).
  if (remedy != "emitted") {
    spec.rules = {std::string(ids::kConsumerChecksum), std::string(ids::kConsumerWrongView)};
  }
  spec.rules.insert(spec.rules.end(),
                    {std::string(ids::kPluginCrash), std::string(ids::kPluginHang)});
  // The producer's capsule findings and the consumer's wrong data decide.
  spec.outcome_from_findings = true;
  spec.crash_rule = std::string(ids::kPluginCrash);
  spec.timeout_rule = std::string(ids::kPluginHang);
  spec.cell = cell;
  spec.consumer_library = target.consumer;
  nlohmann::json details{{"kind", "handoff"}, {"remedy", remedy}};
  if (place.cell != nullptr) {
    // The cell is made once for its remedies: a crash there is the
    // producer's, charged to each of them.
    spec.setup_group = fmt::format("{}/{}/{}", target.worker_key(), place.device, cell);
    details.update({{"device_index", place.device_index},
                    {"cell", cell},
                    {"cell_axis", place.cell->axis},
                    {"cell_value", place.cell->value}});
  }
  spec.snippet =
      handoff_snippet(target, remedy, place.cell != nullptr ? cell : "", place.device_index);
  spec.details = std::make_shared<const PythonCase>(target, std::move(details));
  return spec;
}

}  // namespace

std::vector<CaseSpec> PythonHandoffCaseSource::cases() {
  // The producer's capsule first, a case of its own (its findings are the
  // producer's, and a crash of the consumer cannot take them with it).
  std::vector<std::string> steps{"emitted", "direct"};
  if (target_.remedies) {
    steps.insert(steps.end(), handoff_remedies().begin(), handoff_remedies().end());
  }
  std::vector<CaseSpec> cases;
  if (description_.contains("probe_error")) {
    // Both libraries could not even be imported in one worker: the pair's
    // one case says so (the grid shows it as a failure of the pair).
    CaseSpec spec =
        python_case_spec(target_, fmt::format("{}/import", target_.label()), "python-handoff");
    spec.consumer_library = target_.consumer;
    // The cell of a producer EXPR's one tensor: --cell given selects it.
    spec.cell = "given";
    spec.details = std::make_shared<const NotSupportedCase>(fmt::format(
        "the two libraries cannot share a process: {}", description_.value("probe_error", "")));
    cases.push_back(std::move(spec));
    return cases;
  }
  auto add_place = [&](const HandoffPlace& place) {
    for (const std::string& step : steps) cases.push_back(handoff_case(target_, place, step));
  };
  if (!description_.contains("devices")) {
    add_place(HandoffPlace{});
    return cases;
  }
  for (const LibraryDevice& device : profiled_devices(description_, runtime_().inventory())) {
    if (!device.error.empty() && device.memory.empty()) {
      // No array of the producer's there: one case says why.
      CaseSpec spec = python_case_spec(
          target_, fmt::format("{}/{}/array", target_.label(), device.name), "python-handoff");
      spec.consumer_library = target_.consumer;
      spec.details = std::make_shared<const NotSupportedCase>(fmt::format(
          "the producer made no array on its device {}: {}", device.library_device, device.error));
      cases.push_back(std::move(spec));
      continue;
    }
    for (const ProfileCellSpec& cell : profile_cells()) {
      if (!target_.every_cell && cell.name != kReferenceCell) continue;
      add_place(HandoffPlace{device.name, device.index, &cell});
    }
  }
  return cases;
}

CaseResult PythonHandoffCaseSource::run(const CaseSpec& spec) {
  refuse_run_outside_python(spec);
}

}  // namespace dlpack_usm::suite
