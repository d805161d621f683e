// Names the check report's text and its JUnit XML both give: the group a
// case is counted in, and how a library under test is named.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

// A case's device, "vectors" for the offline ones, or the source of another
// case that needs no device ("exchange-api" for an exchange API's table): a
// row of the summary table and a testsuite of the JUnit XML.
std::string device_group(const suite::RecordedCase& recorded);

// "NAME VERSION (PATH:SYMBOL)" of a plugin as the probe described it.
std::string plugin_label(const nlohmann::json& plugin);

}  // namespace dlpack_usm::report
