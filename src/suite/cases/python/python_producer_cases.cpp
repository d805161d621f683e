#include "suite/cases/python/python_producer_cases.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::suite {

const std::vector<PythonStep>& python_steps() {
  static const std::vector<PythonStep> steps{
      {"capsule",
       "__dlpack__(max_version=MAX)",
       "",
       {"DLP-PY-CAPSULE-NAME", "DLP-PY-EXPORT-RAISED", "DLP-PY-MEMORY-UNREADABLE",
        "DLP-PY-KEYWORD-TYPEERROR"}},
      {"legacy-default",
       "__dlpack__() without max_version",
       "DLP-PY-LEGACY-DEFAULT",
       {"DLP-PY-LEGACY-DEFAULT", "DLP-PY-READ-ONLY-LEGACY", "DLP-PY-CAPSULE-DESTRUCTOR"}},
      {"legacy-max-version",
       "__dlpack__(max_version=(0, 8))",
       "DLP-PY-VERSION-ABOVE-MAX",
       {"DLP-PY-VERSION-ABOVE-MAX"}},
      {"versioned",
       "__dlpack__(max_version=MAX)",
       "DLP-PY-VERSIONED-OFFERED",
       {"DLP-PY-VERSIONED-OFFERED", "DLP-PY-KEYWORD-TYPEERROR"}},
      {"device-agrees", "__dlpack_device__()", "DLP-PY-DEVICE-AGREES", {"DLP-PY-DEVICE-AGREES"}},
      {"stream-cpu",
       "__dlpack__(stream=1) of a host array",
       "DLP-PY-STREAM-CPU",
       {"DLP-PY-STREAM-CPU", "DLP-PY-STREAM-CPU-SYNC"}},
      {"dl-device",
       "__dlpack__(dl_device=..., copy=False)",
       "DLP-PY-DL-DEVICE-OWN",
       {"DLP-PY-DL-DEVICE-OWN", "DLP-PY-DL-DEVICE-FOREIGN", "DLP-PY-NO-COPY-COPIED"}},
      {"copy", "__dlpack__(copy=True)", "DLP-PY-COPY-FLAG", {"DLP-PY-COPY-FLAG"}},
      {"cuda-streams",
       "__dlpack__(stream=...) of a CUDA array",
       "DLP-PY-STREAM-CUDA-ZERO",
       {"DLP-PY-STREAM-CUDA-ZERO", "DLP-PY-STREAM-CUDA-REFUSED"}},
      {"stream-race",
       "__dlpack__(stream=...) of an array with a pending write",
       "DLP-PY-STREAM-RACE",
       {"DLP-PY-STREAM-RACE"}},
      {"usm-array-interface",
       "__sycl_usm_array_interface__",
       "DLP-PY-SUAI-FIELD",
       {"DLP-PY-SUAI-FIELD", "DLP-PY-SUAI-SYCLOBJ", "DLP-PY-SUAI-AGREES"}},
      {"exchange-api",
       "__dlpack_c_exchange_api__",
       "DLP-PY-EXCHANGE-API-CAPSULE",
       {"DLP-PY-EXCHANGE-API-CAPSULE", "DLP-PY-EXCHANGE-API-VERSION", "DLP-PY-EXCHANGE-API-NULL",
        "DLP-PY-EXCHANGE-API-READABLE", "DLP-PY-EXCHANGE-API-TENSOR"}},
      {"consumer-probe",
       "a consumer with a capsule",
       "",
       {"DLP-PY-CONSUMER-RENAME", "DLP-PY-CONSUMER-REUSE"}},
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
    spec.rules = step.rules;
    spec.rules.emplace_back("DLP-PLUGIN-CRASH");
    spec.rules.emplace_back("DLP-PLUGIN-HANG");
    spec.crash_rule = "DLP-PLUGIN-CRASH";
    spec.timeout_rule = "DLP-PLUGIN-HANG";
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
  throw Error(ExitCode::internal,
              fmt::format("case {} runs in a Python worker, not in the tool's own", spec.id));
}

}  // namespace dlpack_usm::suite
