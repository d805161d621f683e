// Colour for people at a terminal: the words of a text report that carry a
// status are coloured as people expect (failures and errors red, warnings
// yellow, passes green), the rest is left alone. It works on the finished
// text, after TextPrinter escaped every foreign byte, so the only escape
// sequences in the result are these; files and pipes get the text as it was
// (the caller decides, see cli/color_option.hpp).
#pragma once

#include <string>
#include <string_view>

namespace dlpack_usm::report {

// Colours, in each line, the first word when it is a status ("FAIL",
// "error", "regression", "warning", "pass", ...), the word after "gate: ",
// the severity cell of a findings table (the first word of its rows), and
// counts of errors and warnings above zero ("2 errors", "1 warning").
std::string color_status_words(std::string_view text);

}  // namespace dlpack_usm::report
