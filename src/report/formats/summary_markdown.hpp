// `check --summary-md FILE` and `report merge --summary-md FILE`: the run in
// GitHub-flavoured Markdown for the job summary ($GITHUB_STEP_SUMMARY): the
// gate, the table of cases per device and outcome, the failure groups (rule,
// message, count) each with its cases and a repro, and the warnings.
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
