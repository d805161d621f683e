// --producer and --consumer, the libraries under test, as `check` and its
// workers (worker_command.cpp) read them.
#pragma once

#include <string>
#include <vector>

#include "plugin/plugin_spec.hpp"
#include "runtime/selection.hpp"

namespace dlpack_usm::cli {

// The libraries the options name (empty text: none), paths made absolute so
// that children and repro lines find them from anywhere.
std::vector<plugin::PluginSpec> library_specs(const std::string& producer,
                                              const std::string& consumer);

// The libraries under test are probed on the runtime chosen, so their plugin
// ABI is unknown when it is chosen: any may be ABI 1, which hands out OpenCL
// handles only (dlpack-usm-plugin(7)).
runtime::LibrariesUnderTest libraries_under_test(const std::vector<plugin::PluginSpec>& specs);

}  // namespace dlpack_usm::cli
