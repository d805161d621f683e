// Numeric option values refused in words: "--batch: 'x' is not a number of
// cases: give 1 to 100000", where CLI11 says "Could not convert" or prints
// its range as DBL_MAX's 309 digits.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace dlpack_usm::cli {

// A whole number from `lowest` to `highest` (decimal digits, an optional
// sign; nothing else). `what` names it ("a number of cases"); `range_words`
// says what to give instead ("give 1 to 4096, or 0 for one per CPU"),
// "give LOWEST to HIGHEST" when empty. The validator has no name: the
// option's placeholder (type_name) says what to type.
CLI::Validator whole_number(std::string what, long long lowest, long long highest,
                            std::string range_words = {});

}  // namespace dlpack_usm::cli
