// The cases of a handoff (dlpack-usm handoff PRODUCER CONSUMER, check
// --python-handoff): the producer's tensor handed to the consumer, in a
// Python worker that holds both libraries (python/dlpack_usm/handoff). A
// producer EXPR gives one tensor; a producer MODULE gives a tensor per cell
// of its profile (python_profile_cells.hpp) on each of its devices. Each
// tensor is a few cases: "emitted" (the producer's capsule under the
// tensor rules: the producer's findings), "direct" (the consumer given the
// array: the consumer's), and, where the target asks for them, each remedy
// a user can write in a line ("host-copy", "legacy-capsule"). A crash in
// one is charged to it alone, and the story says which remedy worked.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"
#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// The remedies tried after the direct handoff (python/dlpack_usm/handoff/
// _remedies.py makes each).
const std::vector<std::string>& handoff_remedies();

class PythonHandoffCaseSource final : public CaseSource {
 public:
  // `description` is what the probe said: the producer's kind and, for a
  // MODULE, its devices.
  PythonHandoffCaseSource(std::function<runtime::Runtime&()> runtime, PythonTarget target,
                          nlohmann::json description);

  std::string_view kind() const override { return "python-handoff"; }
  std::vector<CaseSpec> cases() override;
  // Its cases run in Python workers: a call here is the tool's bug.
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::function<runtime::Runtime&()> runtime_;
  PythonTarget target_;
  nlohmann::json description_;
};

}  // namespace dlpack_usm::suite
