// The capability profile of a consumer under test, in one walk: for
// machines the list of cells ({device, axis, value, outcome, case}), for
// people one block per device with a line per axis: the values accepted,
// the values declined grouped by the consumer's reason, and the failures.
#pragma once

#include <vector>

#include "report/printer.hpp"
#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::report {

// Prints nothing when the profile is empty (no consumer case ran). The
// streams a Python consumer passed go with their device's block, and to
// machines as "streams": [{device, memory, passed}].
void print_profile(Printer& printer, const std::vector<suite::ProfileEntry>& profile,
                   const std::vector<suite::StreamsPassed>& streams = {});

}  // namespace dlpack_usm::report
