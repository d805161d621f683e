// The JSON report of `report merge`: a check report (same schema) whose
// environment is the first input's, with every input's own header under
// "runs" and the expectation files the merge was given (those some run used).
#pragma once

#include <nlohmann/json.hpp>

#include "suite/model/merged_run.hpp"

namespace dlpack_usm::report {

nlohmann::ordered_json merged_run_to_json(const suite::MergedRun& merged);

}  // namespace dlpack_usm::report
