// `check --summary-md FILE` and `report merge --summary-md FILE`: the run in
// GitHub-flavoured Markdown for the job summary ($GITHUB_STEP_SUMMARY): the
// gate, the table of cases per device and outcome, the first failure groups
// (rule, message, count), the first few of them with their cases and a
// repro, and the first warning groups; "And N more groups" points to
// --failures and the JSON report for the rest, so a library with many bugs
// still gives a summary read at a glance.
// Foreign text (messages, device names, case ids) is escaped so that it can
// neither break the tables nor inject markup.
#pragma once

#include <string>
#include <string_view>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

std::string check_run_markdown(const suite::CheckRun& run);

// `text` as the content of a Markdown table cell or heading: one line, no
// HTML, '|' and Markdown's punctuation escaped.
std::string markdown_text(std::string_view text);
// `text` as a fenced code block, fenced longer than any run of backticks in it.
std::string markdown_code_block(std::string_view text);

}  // namespace dlpack_usm::report
