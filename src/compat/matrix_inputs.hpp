// Reads the inputs of `report matrix`, each as the untrusted file it is
// (bounded size, nesting and strings; members checked for their type), and
// normalises the three kinds of report into the cells of the contract:
//   - a profile report (`python3 -m dlpack_usm profile MODULE --report`,
//     schema dlpack-usm.profile-report/2): its producer and consumer cells;
//   - a consume report (`python3 -m dlpack_usm consume EXPR --report`,
//     dlpack-usm.consume-report/2): consumer cells;
//   - a check report (`dlpack-usm check --consumer|--producer LIB --report`,
//     dlpack-usm.report/3, or a merged one): the cells of its producer and
//     consumer cases, each where its record places it (check_input.hpp),
//     read by the one reader of check reports (report_json_reader.hpp).
#pragma once

#include <filesystem>
#include <vector>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

// /2 differs from /1 only in its envelope ("tool" and "version" instead of
// a "tool" object), which the matrix does not read: both are taken.
inline constexpr const char* kProfileReportSchemas[] = {"dlpack-usm.profile-report/2",
                                                        "dlpack-usm.profile-report/1"};
inline constexpr const char* kConsumeReportSchemas[] = {"dlpack-usm.consume-report/2",
                                                        "dlpack-usm.consume-report/1"};

// One profile per library the file speaks of: one for a profile or consume
// report, one per library under test for a check report. Throws
// Error(usage) naming the file and what it is when it is none of the three
// kinds, and naming the JSON pointer of a member that is missing or of
// another type.
std::vector<LibraryProfile> read_matrix_input(const std::filesystem::path& path);

}  // namespace dlpack_usm::compat
