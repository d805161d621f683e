// What stays of a message once the values that change from case to case are
// masked: the key that groups alike failures (report/failure_groups.hpp).
// A producer with one bug fails dozens of cases with one message that
// differs only in its values: an address (0x7f3a5c001040), a count, a size,
// an index, a list of strides ([12, 4, 1] or [-4]). Each of those is one
// mark, so that the cases read as one group, not one group per address.
#pragma once

#include <string>
#include <string_view>

namespace dlpack_usm::report {

// `message` with every number made one '#': a hex number with its 0x, a
// decimal one with its sign, and a list of numbers ("1, 2, 3", "[-4, 8]")
// as a whole, an empty one ("[]") too. Words keep their digits' place:
// "float32" and "int8" stay apart ("float#", "int#").
std::string message_pattern(std::string_view message);

}  // namespace dlpack_usm::report
