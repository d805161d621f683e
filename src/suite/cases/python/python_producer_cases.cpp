#include "suite/cases/python/python_producer_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/python/python_snippet.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::suite {

namespace ids = rules::ids;

const std::vector<PythonStep>& python_steps() {
  static const std::vector<PythonStep> steps{
      {"capsule",
       "__dlpack__(max_version=MAX)",
       "",
       {ids::kPyCapsuleName, ids::kPyExportRaised, ids::kPyMemoryUnreadable,
        ids::kPyKeywordTypeerror}},
      {"legacy-default",
       "__dlpack__() without max_version",
       ids::kPyLegacyDefault,
       {ids::kPyLegacyDefault, ids::kPyReadOnlyLegacy, ids::kPyCapsuleDestructor}},
      {"legacy-max-version",
       "__dlpack__(max_version=(0, 8))",
       ids::kPyVersionAboveMax,
       {ids::kPyVersionAboveMax}},
      {"versioned",
       "__dlpack__(max_version=MAX)",
       ids::kPyVersionedOffered,
       {ids::kPyVersionedOffered, ids::kPyKeywordTypeerror}},
      {"device-agrees", "__dlpack_device__()", ids::kPyDeviceAgrees, {ids::kPyDeviceAgrees}},
      {"stream-cpu",
       "__dlpack__(stream=1) of a host array",
       ids::kPyStreamCpu,
       {ids::kPyStreamCpu, ids::kPyStreamCpuSync}},
      {"dl-device",
       "__dlpack__(dl_device=..., copy=False)",
       ids::kPyDlDeviceOwn,
       {ids::kPyDlDeviceOwn, ids::kPyDlDeviceForeign, ids::kPyNoCopyCopied}},
      {"copy", "__dlpack__(copy=True)", ids::kPyCopyFlag, {ids::kPyCopyFlag}},
      {"cuda-streams",
       "__dlpack__(stream=...) of a CUDA array",
       ids::kPyStreamCudaZero,
       {ids::kPyStreamCudaZero, ids::kPyStreamCudaRefused}},
      // The runtime's control of the stream checks (producer/_stream_control.py):
      // a case of its own, so that a runtime's misordering is named once and
      // never makes the producer's case fail.
      {"stream-control",
       "the same read after the producer's wait done by the tool (a control)",
       "",
       {ids::kRuntimeQueueOrder}},
      {"stream-race",
       "__dlpack__(stream=...) of an array with a pending write",
       ids::kPyStreamRace,
       {ids::kPyStreamRace}},
      {"usm-array-interface",
       "__sycl_usm_array_interface__",
       ids::kPySuaiField,
       {ids::kPySuaiField, ids::kPySuaiSyclobj, ids::kPySuaiAgrees}},
      {"exchange-api",
       "__dlpack_c_exchange_api__",
       ids::kPyExchangeApiCapsule,
       {ids::kPyExchangeApiCapsule, ids::kPyExchangeApiVersion, ids::kPyExchangeApiNull,
        ids::kPyExchangeApiReadable, ids::kPyExchangeApiTensor}},
      {"consumer-probe",
       "a consumer with a capsule",
       "",
       {ids::kPyConsumerRename, ids::kPyConsumerReuse}},
  };
  return steps;
}

std::vector<CaseSpec> PythonProducerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  for (const PythonStep& step : python_steps()) {
    CaseSpec spec = python_case_spec(
        target_, fmt::format("{}/producer/{}", target_.label(), step.name), "python-producer");
    spec.outcome_from_findings = true;
    // Every step rests on the capsule the worker reads once (announced as
    // setup): a crash or hang there is charged to every step at once.
    spec.setup_group = fmt::format("{}/capsule", target_.worker_key());
    spec.rules.assign(step.rules.begin(), step.rules.end());
    spec.rules.emplace_back(ids::kPluginCrash);
    spec.rules.emplace_back(ids::kPluginHang);
    spec.crash_rule = std::string(ids::kPluginCrash);
    spec.timeout_rule = std::string(ids::kPluginHang);
    spec.snippet = producer_snippet(target_, step.name);
    spec.details = std::make_shared<const PythonCase>(
        target_, nlohmann::json{{"kind", "step"},
                                {"step", step.name},
                                {"asked", step.asked},
                                {"escape_rule", step.escape_rule}});
    cases.push_back(std::move(spec));
  }
  return cases;
}

CaseResult PythonProducerCaseSource::run(const CaseSpec& spec) {
  refuse_run_outside_python(spec);
}

}  // namespace dlpack_usm::suite
