#include "suite/cases/python/python_consumer_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/consumer/consumer_layout.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/python/python_snippet.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::suite {
namespace {

namespace ids = rules::ids;

// The rules a consumer case is about (check --rule selects by them).
std::vector<std::string> consumer_rules() {
  std::vector<std::string> judged;
  for (std::string_view rule :
       {ids::kConsumerChecksum, ids::kConsumerWrongView, ids::kConsumerInconsistentDecline,
        ids::kConsumerAcceptsInvalid, ids::kConsumerImportsUnknownMajor, ids::kConsumerDeleterCount,
        ids::kConsumerWritesReadOnly, ids::kConsumerCallsNullDeleter, ids::kConsumerRequiredFeature,
        ids::kPluginCrash, ids::kPluginHang}) {
    judged.emplace_back(rule);
  }
  return judged;
}

}  // namespace

PythonConsumerCaseSource::PythonConsumerCaseSource(std::function<runtime::Runtime&()> runtime,
                                                   PythonTarget target, nlohmann::json description,
                                                   std::string prefix)
    : runtime_(std::move(runtime)),
      target_(std::move(target)),
      description_(std::move(description)),
      prefix_(std::move(prefix)) {}

namespace {

// A case of one cell: the worker offers it as `memory` ("cpu", or a USM
// kind of the root device `device_id`) and calls the consumer.
CaseSpec cell_case(const PythonTarget& target, const std::string& prefix, const std::string& device,
                   std::int32_t device_id, ConsumerCell cell) {
  CaseSpec spec = python_case_spec(
      target, fmt::format("{}/consumer/{}/{}/{}", prefix, device, cell.group, cell.shape.name),
      "python-consumer");
  spec.device = device;
  spec.rules = consumer_rules();
  spec.features = cell.features;
  spec.cell = cell.shape.name;
  spec.place = std::move(cell.place);
  if (cell.valid()) {
    spec.decline_rule = std::string(ids::kConsumerRequiredFeature);
    spec.crash_rule = std::string(ids::kPluginCrash);
    spec.timeout_rule = std::string(ids::kPluginHang);
  } else {
    // Nothing requires a consumer to validate: a crash or hang on an
    // invalid tensor is a warning.
    spec.crash_rule = std::string(ids::kPluginCrashInvalid);
    spec.timeout_rule = std::string(ids::kPluginHangInvalid);
  }
  if (cell.shape.null_deleter) spec.crash_rule = std::string(ids::kConsumerCallsNullDeleter);
  spec.snippet = consumer_snippet(target, cell.shape.name, cell.memory_name(), device_id);
  spec.details =
      std::make_shared<const PythonCase>(target, nlohmann::json{{"kind", "consume"},
                                                                {"cell", cell.shape.name},
                                                                {"memory", cell.memory_name()},
                                                                {"device_id", device_id}});
  return spec;
}

// The stream case of CUDA device `ordinal`: a vector whose write is still
// in flight, and the stream the consumer passes.
CaseSpec stream_case(const PythonTarget& target, const std::string& prefix, int ordinal) {
  std::string device = fmt::format("cuda:{}", ordinal);
  CaseSpec spec = python_case_spec(
      target, fmt::format("{}/consumer/{}/device/stream", prefix, device), "python-consumer");
  spec.device = device;
  spec.rules = {std::string(ids::kPyConsumerStreamZero), std::string(ids::kPyConsumerStreamRead),
                std::string(ids::kPyConsumerStreamDevice), std::string(ids::kPluginCrash),
                std::string(ids::kPluginHang)};
  spec.place = {Direction::consumer, "cuda", {{"stream", "stream"}}, std::nullopt};
  spec.crash_rule = std::string(ids::kPluginCrash);
  spec.timeout_rule = std::string(ids::kPluginHang);
  spec.details = std::make_shared<const PythonCase>(
      target, nlohmann::json{{"kind", "stream"}, {"device_id", ordinal}});
  return spec;
}

// The copy oracle's case of one memory ("cpu", or a USM kind of root
// device `device_id`): from_dlpack(x, copy=...) of the plainest cell.
CaseSpec copy_case(const PythonTarget& target, const std::string& prefix, const std::string& device,
                   std::int32_t device_id, const std::string& memory, bool copy) {
  std::string shown = copy ? "True" : "False";
  CaseSpec spec = python_case_spec(
      target, fmt::format("{}/consumer/{}/copy/{}", prefix, device, shown), "python-consumer");
  spec.device = device;
  spec.rules = {std::string(copy ? ids::kPyConsumerCopyShared : ids::kPyConsumerNoCopyCopied),
                std::string(ids::kPluginCrash), std::string(ids::kPluginHang)};
  spec.place = {Direction::consumer,
                memory == "cpu" ? memory : fmt::format("{}-usm", memory),
                {{"copy", shown}},
                std::nullopt};
  spec.crash_rule = std::string(ids::kPluginCrash);
  spec.timeout_rule = std::string(ids::kPluginHang);
  spec.details = std::make_shared<const PythonCase>(
      target, nlohmann::json{
                  {"kind", "copy"}, {"copy", copy}, {"memory", memory}, {"device_id", device_id}});
  return spec;
}

void add_copy_cases(std::vector<CaseSpec>& cases, const PythonTarget& target,
                    const std::string& prefix, const std::string& device, std::int32_t device_id,
                    const std::string& memory) {
  for (bool copy : {true, false}) {
    cases.push_back(copy_case(target, prefix, device, device_id, memory, copy));
  }
}

}  // namespace

std::vector<CaseSpec> PythonConsumerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  // A library whose namespace has no from_dlpack has no consumer side.
  if (!description_.value("has_from_dlpack", true)) {
    CaseSpec spec = python_case_spec(target_, fmt::format("{}/consumer/from_dlpack", prefix_),
                                     "python-consumer");
    spec.details = std::make_shared<const NotSupportedCase>(
        fmt::format("{} has no from_dlpack(): no tensor can be offered to it", target_.text));
    cases.push_back(std::move(spec));
    return cases;
  }
  for (ConsumerCell& cell : host_consumer_cells()) {
    cases.push_back(cell_case(target_, prefix_, "cpu", 0, std::move(cell)));
  }
  add_copy_cases(cases, target_, prefix_, "cpu", 0, "cpu");
  OwnerAnswerBlocks blocks(runtime_());
  for (const auto& [platform, root] : runtime_().inventory().roots()) {
    for (ConsumerCell& cell : usm_consumer_cells(root)) {
      bool valid = cell.valid();
      CaseSpec spec =
          cell_case(target_, prefix_, root.selector_name, root.dlpack_device_id(), std::move(cell));
      // A wrong owner answer of the runtime blocks the valid cells of the
      // device: their verdict would rest on it.
      if (valid) blocks.block(spec);
      cases.push_back(std::move(spec));
    }
    if (std::optional<facts::UsmKind> kind = first_consumer_kind(root)) {
      add_copy_cases(cases, target_, prefix_, root.selector_name, root.dlpack_device_id(),
                     std::string(facts::to_string(*kind)));
    }
  }
  for (const nlohmann::json& ordinal :
       description_.value("cuda_devices", nlohmann::json::array())) {
    if (ordinal.is_number_integer()) {
      cases.push_back(stream_case(target_, prefix_, ordinal.get<int>()));
    }
  }
  return cases;
}

CaseResult PythonConsumerCaseSource::run(const CaseSpec& spec) {
  refuse_run_outside_python(spec);
}

}  // namespace dlpack_usm::suite
