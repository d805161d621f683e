// Every source of cases `check` knows, in one place: a new case source is
// one folder under suite/cases/ and one line here.
#pragma once

#include <filesystem>
#include <vector>

#include "plugin/plugin_spec.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// The shipped vectors alone (check --vectors-only).
CaseSources vector_case_sources(const std::filesystem::path& suite_dir);

// Every case source `check` knows: the shipped vectors and the live cases.
CaseSources default_case_sources(const std::filesystem::path& suite_dir);

// The sources a run uses: the default ones, or, when libraries are under
// test, their producer, exchange-API and consumer cases alone;
// `stream_attempts` is the requests each producer stream case makes.
CaseSources case_sources(const std::filesystem::path& suite_dir,
                         const std::vector<plugin::PluginSpec>& plugins, int stream_attempts);

// The runtime's owner answer (named once however many libraries run) and
// the cases of the C plugins `plugins` (none: the caller adds the sources of
// its Python libraries, suite/cases/python).
CaseSources library_case_sources(const std::vector<plugin::PluginSpec>& plugins,
                                 int stream_attempts);

}  // namespace dlpack_usm::suite
