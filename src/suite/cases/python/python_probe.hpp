// Before its cases are planned, a Python library under test is imported
// (its EXPR evaluated) once, in a Python worker of its own: the probe. It
// says what the library is (its name, version and the versions of the
// packages it imported) and what the plan needs to know that only the
// library can tell: a library's devices and the DLPack device and memory
// an array made on each exports, the CUDA devices a consumer's stream case
// can use. An import that fails, crashes, hangs or ends the process is the
// library's, named as the library under test: the run stops there (exit 3,
// or 2 for an EXPR that is no expression or names no module).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "suite/cases/python/python_target.hpp"

namespace dlpack_usm::suite {

// The description the probe sent; nullopt when a stop signal ended it.
// Throws the worker's Error, or Error(environment) where the library ended
// the probe. It has the larger of 60 s and `case_timeout` (or
// DLPACK_USM_PROBE_TIMEOUT_S seconds), as every probe of foreign code.
std::optional<nlohmann::json> probe_python(const std::string& self, const std::string& suite_dir,
                                           const PythonTarget& target,
                                           std::chrono::milliseconds case_timeout);

// How one of several probes ended: the description, or the Error it ended
// with (as probe_python throws it).
struct ProbeOutcome {
  std::optional<nlohmann::json> described;
  std::optional<Error> error;
};

// The probes of `targets`, at most `jobs` at once (a pairwise run imports
// two libraries per pair: run one after the other, the imports were most of
// its time), in the order of `targets`; nullopt when a stop signal came.
std::optional<std::vector<ProbeOutcome>> probe_pythons(const std::string& self,
                                                       const std::string& suite_dir,
                                                       std::span<const PythonTarget> targets,
                                                       std::chrono::milliseconds case_timeout,
                                                       std::size_t jobs);

}  // namespace dlpack_usm::suite
