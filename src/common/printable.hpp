// Text from outside the tool (input files, drivers, libraries under test,
// reports) made safe for one-line messages and text reports: control bytes
// and bytes that are not UTF-8 become \xNN; C1 controls, bidirectional
// overrides and other code points a terminal acts on become \u{XXXX}; and
// what GitHub's runner would take as a workflow command in a log line (the
// legacy "##[" anywhere, "::" at the start) has its first character escaped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlpack_usm {

// `text` in double quotes, escaped, and cut after `max_bytes` with a note of
// the full length.
std::string quote_for_message(std::string_view text, std::size_t max_bytes = 48);
// The same escaping, unquoted and uncut.
std::string printable(std::string_view text);
// printable(text) added to the end of `out`, without a string of its own.
void append_printable(std::string& out, std::string_view text);
// Whether printable leaves `text` as it is wherever it stands in a line:
// printable ASCII, no "##[", not starting with "::" nor ending with '#'
// (which a following "#[" or "[" would make a command).
bool printable_as_is(std::string_view text);

}  // namespace dlpack_usm
