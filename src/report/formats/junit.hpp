// JUnit XML of a finished check run, for CI systems: one testsuite per
// device ("vectors" for the offline cases), one testcase per case that ran
// (none for the cases the filters left out).
#pragma once

#include <string>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

std::string check_run_to_junit(const suite::CheckRun& run);

}  // namespace dlpack_usm::report
