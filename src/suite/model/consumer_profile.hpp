// The capability profile of a consumer under test: for each USM root device
// and each cell of the matrix (an axis and a value on it), the one class of
// outcome its case had. `check --consumer` reports it; the Python package's
// consumer checks emit the same list. It is read from the typed fields of
// each record (its place and its exchange), never from a case id.
#pragma once

#include <string>
#include <vector>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

// The classes, as the JSON report spells them (matrix::profile_classes):
// accepted (right view and data), declined (with the consumer's reason; a
// decline never fails, though one whose compact twin was accepted warns),
// wrong (view or data), accepted-invalid, crash, hang, deleter-misuse, and
// refused (an invalid tensor refused).
struct ProfileEntry {
  std::string device;
  std::string axis;
  std::string value;
  std::string outcome;
  std::string case_id;
  std::string reason;   // a decline's reason, or what happened
  std::string status;   // the case's outcome: pass, warn, fail, not_supported, crash, ...
  bool failed = false;  // whether the case fails the gate
};

// Whether `outcome` is a class of the capability profile (none is not).
bool is_profile_class(ExchangeOutcome outcome);

// The cell of the profile a record is: a consumer case's line, unless the
// cell could not be measured here (not applicable: blocked by the runtime's
// owner answer); nullptr for every other case. A cell that never ran
// (skipped, not run, a harness error) has one, with no class.
const MatrixLine* profile_line(const RecordedCase& recorded);

// Every consumer case that ran and has a class, in the run's order.
std::vector<ProfileEntry> capability_profile(const CheckRun& run);

// The `stream` values a consumer passed to __dlpack__ on one device and
// memory, each once, in the order first seen: what a Python consumer's
// records observed (their evidence's calls). None is "None".
struct StreamsPassed {
  std::string device;
  std::string memory;
  std::vector<std::string> passed;
};
std::vector<StreamsPassed> consumer_streams(const CheckRun& run);

// The axes in the order the report shows them.
const std::vector<std::string>& profile_axes();

}  // namespace dlpack_usm::suite
