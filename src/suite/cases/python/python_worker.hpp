// A Python worker: the interpreter running `python -m dlpack_usm._worker`
// (python/dlpack_usm/_worker), started by the runner like any worker. The
// runner starts `dlpack-usm worker --python INTERP ...`, which contains the
// worker as every worker is contained (its own PID namespace, dead with the
// run: worker_containment.hpp) and then becomes the interpreter. The
// interpreter takes the result channel as the tool's own workers do
// (result_channel.hpp: the nonce on descriptor 3, then moved out of the
// way) and reads its batch on stdin: {"task": "run" | "describe", "target":
// PythonTarget::to_json(), "cases": [{"id", "kind", ...}]}. It imports the
// library once, says it is ready, and sends one record a case
// (worker_protocol.hpp), announcing its calls into the library
// (worker_calls.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// The interpreter and package the workers run: `interpreter` where given
// (check --python), else the tools interpreter scripts/setup.sh prepared
// (DLPACK_USM_TOOLS_PREFIX/bin/python) where it exists, else python3; the
// package from DLPACK_USM_PYTHON_PACKAGE (the front-end `python -m
// dlpack_usm` names its own), else beside the binary (a build tree's
// python/, an install's share/dlpack-usm/python), else the interpreter's.
PythonSetup find_python_setup(const std::string& interpreter);

// The argv of a worker of `setup` (the hidden `worker` subcommand).
std::vector<std::string> python_worker_argv(const std::string& self, const PythonSetup& setup,
                                            const std::string& suite_dir, long runner_pid);

// What a Python case hands its worker, beside its id: {"kind": ..., ...}.
struct PythonCase final : CaseDetails {
  PythonCase(PythonTarget of, nlohmann::json task)
      : target(std::move(of)), details(std::move(task)) {}
  PythonTarget target;
  nlohmann::json details;
};

// A case of `target`, in its worker, with its library named again for the
// repro line; the source sets the rest.
CaseSpec python_case_spec(const PythonTarget& target, std::string id, std::string source);

// What a Python source's run() does: its cases run in Python workers, so a
// call in the tool's own process is the tool's bug (Error(internal)).
[[noreturn]] void refuse_run_outside_python(const CaseSpec& spec);

// The stdin of a worker running `batch` (the cases of `target`: a
// PythonCase each, or a NotSupportedCase the plan blocked, which the worker
// reports as it is), or of one describing `target` (describe_input).
std::string python_batch_input(const PythonTarget& target,
                               const std::vector<const CaseSpec*>& batch);
std::string describe_input(const PythonTarget& target);

// In the worker, once contained: becomes the interpreter. Returns only
// when it could not (errno says why).
void exec_python_worker(const PythonSetup& setup);

}  // namespace dlpack_usm::suite
