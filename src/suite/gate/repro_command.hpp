// The `repro:` line of a case: the shell command that runs it again, alone,
// on the same runtime; for a vector, the `capsule check` of its file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plugin/plugin_spec.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// A shell command line that re-runs one case (with the --require options
// among `required_features` that the case names).
std::string repro_command(const CaseSpec& spec, const std::filesystem::path& suite_dir,
                          bool default_suite, const std::vector<plugin::PluginSpec>& plugins = {},
                          const std::vector<std::string>& required_features = {});

}  // namespace dlpack_usm::suite
