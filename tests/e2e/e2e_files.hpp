// Files the end-to-end tests share: the fixture libraries, scratch
// directories and the JSON reports the binary writes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm::e2e {

// The fixture plugin libfixture_NAME.so (fixtures/plugins/CMakeLists.txt).
std::filesystem::path fixture(const std::string& library);

// An empty directory of this test process, named after `name`.
std::filesystem::path scratch_dir(const std::string& name);

// The JSON document in `path`; a test failure (an exception) when it is not one.
nlohmann::json read_json(const std::filesystem::path& path);

// The results of a report for the cases of the library under test that
// ran: not the runtime's owner answer, not those the filters left out.
std::vector<nlohmann::json> library_results(const nlohmann::json& report);

}  // namespace dlpack_usm::e2e
