// The gate's exit code: the one decision `check` and `report merge` end
// with (and the Python front-ends through them). Reports only format a
// finished run; what the run means for the shell is decided here.
#pragma once

#include "common/error.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

// 0 when the gate passed, 1 (findings) otherwise.
ExitCode decide_exit_code(const CheckRun& run);

}  // namespace dlpack_usm::suite
