// A Python producer's check (check --python-producer EXPR): the capsule
// EXPR's __dlpack__ gives, read under the tensor rules, then the Python
// protocol asked step by step (python_steps()), each step a case. The
// worker evaluates EXPR once and reads the capsule once (the steps' setup
// group: a crash or hang there is charged to every step); a step's calls
// into the producer are announced, so a crash or hang is charged to the
// call by name, and the next step goes on in a new worker.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// One step of the protocol's check: its name (the worker's function of the
// same name runs it), what it asks the producer (as messages say it), the
// rule an exception of the producer's code escaping it is charged to (none
// for the consumer probe, whose trouble is the consumer's), and the rules
// it may fire (check --rule).
struct PythonStep {
  const char* name;
  const char* asked;
  std::string_view escape_rule;  // "" for none
  std::vector<std::string_view> rules;
};

// In order: "capsule" first (the tensor rules on __dlpack__(max_version=MAX)),
// the consumer probe last. The Python API's check() runs the same steps in
// the same order (the bridge's python_steps).
const std::vector<PythonStep>& python_steps();

class PythonProducerCaseSource final : public CaseSource {
 public:
  explicit PythonProducerCaseSource(PythonTarget target) : target_(std::move(target)) {}

  std::string_view kind() const override { return "python-producer"; }
  bool needs_runtime() const override { return false; }
  std::vector<CaseSpec> cases() override;
  // Its cases run in Python workers: a call here is the tool's bug.
  CaseResult run(const CaseSpec& spec) override;

 private:
  PythonTarget target_;
};

}  // namespace dlpack_usm::suite
