// The consumer matrix offered to a Python consumer (check --python-consumer
// EXPR, and the consumer side of --python-library MODULE: its
// from_dlpack): every cell that has a host form on plain host memory
// (kDLCPU), the matrix of `check --consumer` on every USM root device, and
// a stream case on each CUDA device the probe saw (python_probe.hpp). The
// worker offers each cell through the bridge, calls the consumer, reads
// back what it returned and asks the one consumer verdict
// (matrix/consumer_verdict.hpp) for the record.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"
#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

class PythonConsumerCaseSource final : public CaseSource {
 public:
  // `target` is the consumer; `description` what its probe said (its CUDA
  // devices); `prefix` the first part of every id ("numpy.from_dlpack", or
  // "numpy" for a library's consumer side).
  PythonConsumerCaseSource(std::function<runtime::Runtime&()> runtime, PythonTarget target,
                           nlohmann::json description, std::string prefix);

  std::string_view kind() const override { return prefix_; }
  std::vector<CaseSpec> cases() override;
  // Its cases run in Python workers: a call here is the tool's bug.
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::function<runtime::Runtime&()> runtime_;
  PythonTarget target_;
  nlohmann::json description_;
  std::string prefix_;
};

}  // namespace dlpack_usm::suite
