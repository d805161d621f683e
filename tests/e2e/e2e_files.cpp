#include "e2e_files.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace dlpack_usm::e2e {

std::filesystem::path fixture(const std::string& library) {
  return std::filesystem::path(DLPACK_USM_FIXTURE_PLUGIN_DIR) / ("libfixture_" + library + ".so");
}

std::filesystem::path scratch_dir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("dlpack-usm-plugin-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

std::vector<nlohmann::json> library_results(const nlohmann::json& report) {
  std::vector<nlohmann::json> ran;
  for (const nlohmann::json& result : report.at("results")) {
    if (result.at("outcome") == "skipped" ||
        result.at("id").get<std::string>().starts_with("runtime/")) {
      continue;
    }
    ran.push_back(result);
  }
  return ran;
}

}  // namespace dlpack_usm::e2e
