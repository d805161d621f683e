// No vacuous green (issue 36): a library under test that exchanged nothing
// (a producer that produced no tensor, a library profiled with every case
// declined) proves nothing, and a run that passes it would be a green nobody
// earned. check then exits 3, as for an empty selection, unless
// --allow-empty says such a run is expected. Consumers are not held to it:
// declining a tensor is an answer the consumer matrix records.
#pragma once

#include <string>
#include <vector>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

struct VacuousLibrary {
  std::string name;  // the Python library's EXPR or MODULE, or "the --producer plugin"
  int cases = 0;     // its cases that ran, every one not_supported
};

// The producers and profiled libraries of `run` whose every case that ran
// was declined (not_supported, or a pass for a decline that was right).
std::vector<VacuousLibrary> vacuous_libraries(const CheckRun& run);

// "nothing was exchanged with LIB (its N cases were all declined); ...".
std::string vacuous_message(const std::vector<VacuousLibrary>& libraries);

}  // namespace dlpack_usm::suite
