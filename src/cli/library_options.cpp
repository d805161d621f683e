#include "cli/library_options.hpp"

#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin/declared_runtime.hpp"

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
  if (specs.empty()) return runtime::LibrariesUnderTest::none;
  std::string sycl_library;
  std::string opencl_library;
  for (const plugin::PluginSpec& spec : specs) {
    std::string declared = plugin::declared_runtime(spec.path);
    (declared == "sycl" ? sycl_library : opencl_library) = spec.path;
  }
  if (sycl_library.empty()) return runtime::LibrariesUnderTest::opencl_handles;
  if (!opencl_library.empty()) {
    fail_usage(fmt::format("{} declares that it takes SYCL's handles and {} takes OpenCL's: one "
                           "check runs on one runtime",
                           sycl_library, opencl_library),
               "check them in two runs (the second with --runtime opencl), or declare "
               "DLPACK_USM_PLUGIN_RUNTIME(\"sycl\") in both where both take SYCL's handles");
  }
  return runtime::LibrariesUnderTest::sycl_required;
}

}  // namespace dlpack_usm::cli
