// The profile cells of a consume report, and of the producer and consumer
// sections of a profile report (the body of a consume report, with a
// producer twin): the contract's entries, each completed from its case's
// result where the entry leaves something out (memory, exception, worst
// finding, repro).
#pragma once

#include <string>
#include <vector>

#include "common/json_fields.hpp"
#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

// The cells of one body, whose "profile" lists the entries and "results"
// the cases. `direction` is the entries' default; `consumer` (the
// consumer's expression, "numpy.from_dlpack") makes a repro for consumer
// cells that carry none.
std::vector<ProfileCell> read_body_cells(const JsonFields& body, const std::string& direction,
                                         const std::string& consumer);

// The rule and message of the worst of a result's "findings" (error, then
// warning, then info; the first of equals): into cell.rule and cell.message.
void take_worst_finding(const JsonFields& result, ProfileCell& cell);

// The consumer matrix's versions axis names the memory in the value
// ("1.0/host-usm"); with the memory a row of its own, the value is "1.0".
void drop_memory_from_value(ProfileCell& cell);

// A profile report's library, its cells from both sections.
LibraryProfile read_profile_report(const JsonFields& top);
// A library's name or version as a report gives it (what the library said of
// itself), cut with a mark at kLibraryTextColumns: the matrix names it on
// every row and in every page, so its length must not multiply.
inline constexpr std::size_t kLibraryTextColumns = 120;
std::string library_text(std::string text);
// A consume report's consumer as a library ("numpy.from_dlpack" -> numpy
// with the version of its package).
LibraryProfile read_consume_report(const JsonFields& top);

}  // namespace dlpack_usm::compat
