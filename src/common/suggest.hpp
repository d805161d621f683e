// "Did you mean": the known names closest to a mistyped one, for usage
// errors (a command, an option, a rule id, a device, a dtype).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm {

// The candidates within a few edits of `typed` (insertions, deletions,
// substitutions and swaps of neighbours, case ignored), closest first, at
// most `limit`; none when nothing is close, so a wild guess is not offered.
std::vector<std::string> closest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

// " (did you mean 'check'?)", " (did you mean 'a' or 'b'?)", or "" when
// nothing is close.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace dlpack_usm
