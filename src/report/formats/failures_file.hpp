// The failures file of a `check` run (--failures): the ids of its failing
// cases in the format of a baseline, so that a run's failures can become the
// next run's baseline. The format itself, read and written, is
// suite/model/expectations.hpp's.
#pragma once

#include <string>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

std::string check_run_failures(const suite::CheckRun& run);

}  // namespace dlpack_usm::report
