#include "cli/library_options.hpp"

#include <filesystem>
#include <utility>

namespace dlpack_usm::cli {

std::vector<plugin::PluginSpec> library_specs(const std::string& producer,
                                              const std::string& consumer) {
  std::vector<plugin::PluginSpec> specs;
  for (auto [role, text] : {std::pair{plugin::Role::producer, &producer},
                            std::pair{plugin::Role::consumer, &consumer}}) {
    if (text->empty()) continue;
    plugin::PluginSpec spec = plugin::parse_plugin_spec(role, *text);
    spec.path = std::filesystem::absolute(spec.path).lexically_normal().string();
    specs.push_back(std::move(spec));
  }
  return specs;
}

runtime::LibrariesUnderTest libraries_under_test(const std::vector<plugin::PluginSpec>& specs) {
  return specs.empty() ? runtime::LibrariesUnderTest::none
                       : runtime::LibrariesUnderTest::opencl_handles;
}

}  // namespace dlpack_usm::cli
