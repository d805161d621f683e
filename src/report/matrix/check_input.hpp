// The libraries of a `check --consumer LIB` / `check --producer LIB` report
// as matrix cells: the consumer's capability profile (the report's
// "profile", completed from its results), and producer cells derived from
// the producer cases. The producer matrix is every dtype × layout × version
// (matrix/live_matrix.hpp); its cells are the three lines through the
// tensor a consumer asks for most (float32, C order, the newest version):
// each dtype at C order and the newest version, each layout at float32,
// each version at float32 C order; read-only and lifetime cases at float32.
// A case off those lines becomes a "combined" cell only where it warns or
// fails, so harm is never folded away.
#pragma once

#include <vector>

#include "common/json_fields.hpp"
#include "report/matrix/matrix_model.hpp"

namespace dlpack_usm::report {

// One profile per library under test (plugins with role producer or
// consumer). Throws Error(usage) for a report of a run without one.
std::vector<LibraryProfile> read_check_report(const JsonFields& top);

// The producer cells of one result of a producer or exchange-API case
// (none for a case that never ran, or off the lines and passing).
std::vector<ProfileCell> producer_cells(const JsonFields& result);

}  // namespace dlpack_usm::report
