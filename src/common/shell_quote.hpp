// Words of a command line the user may paste into a POSIX shell: the repro
// lines of `check` and of `report matrix`.
#pragma once

#include <string>
#include <string_view>

namespace dlpack_usm {

// `text` in single quotes, each ' inside written as '\''.
std::string shell_quote(std::string_view text);

// `text` as it is where the shell would take it as one word unchanged
// (letters, digits and _ - . / : = , +), shell_quote(text) otherwise.
std::string shell_word(std::string_view text);

}  // namespace dlpack_usm
