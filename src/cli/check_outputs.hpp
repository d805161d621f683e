// The files a gate decision is written to, shared by `check` and
// `report merge`: the JSON report, JUnit XML and the failures list, checked
// before any work starts and written atomically once the verdict is known.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::cli {

struct CheckOutputs {
  std::string report;    // --report ("-": stdout)
  std::string junit;     // --junit
  std::string failures;  // --failures
  std::string stream;    // --stream (check only)
};

// Throws Error(usage) for paths that name one file twice, more than one
// stdout, or a target that cannot be written in place or replaced.
void require_writable_outputs(const CheckOutputs& outputs);

// Writes the outputs that were asked for; `report_json` is the report as the
// command builds it. Then prints the summary, on stderr when the report went
// to stdout.
void write_check_outputs(const suite::CheckRun& run, const nlohmann::ordered_json& report_json,
                         const CheckOutputs& outputs);

}  // namespace dlpack_usm::cli
