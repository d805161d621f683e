// The libraries of a `check --consumer LIB` / `check --producer LIB` report
// as matrix cells, read by the one reader of check reports
// (report_json_reader.hpp): each case's record says where it sits (its
// place: direction, memory, the lines it lies on, the row of a crossed
// tensor off them) and what happened (its exchange), as fields. The places
// themselves are set where the cases are planned
// (suite/cases/producer/producer_place.hpp, the consumer cases); nothing
// here reads a case id.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_fields.hpp"
#include "compat/matrix_model.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::compat {

// One profile per library under test (plugins with role producer or
// consumer), its cells those of the cases of its direction. Throws
// Error(usage) for a report of a run without one, and for a report older
// than dlpack-usm.report/3, whose cases carry no place.
std::vector<LibraryProfile> read_check_report(const JsonInput& input,
                                              const nlohmann::json& document);

// The cells of one record: one per line of its place, or the row of its
// crossed tensor where it lies on none and does not pass; none for a case
// without a place or an exchange (it never ran, or measures no library).
std::vector<ProfileCell> record_cells(const suite::RecordedCase& recorded);

}  // namespace dlpack_usm::compat
