#include "suite/gate/repro_command.hpp"

#include <algorithm>

#include "common/shell_quote.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/vectors/vector_cases.hpp"

namespace dlpack_usm::suite {

std::string repro_command(const CaseSpec& spec, const std::filesystem::path& suite_dir,
                          bool default_suite, const std::vector<plugin::PluginSpec>& plugins,
                          const std::vector<std::string>& required_features) {
  // A vector is a capsule file: `capsule check` shows every finding of its
  // tensors (field, value, message), which is what a regression needs.
  if (std::filesystem::path file = vector_file(spec, suite_dir); !file.empty()) {
    return "dlpack-usm capsule check " + shell_quote(file.string());
  }
  std::string command = "dlpack-usm check";
  std::vector<std::string> arguments =
      spec.library_arguments.empty() ? plugin::plugin_arguments(plugins) : spec.library_arguments;
  for (const std::string& argument : arguments) {
    command += " " + (argument.starts_with("--") ? argument : shell_quote(argument));
  }
  for (const std::string& feature : required_features) {
    if (std::find(spec.features.begin(), spec.features.end(), feature) == spec.features.end()) {
      continue;
    }
    command.append(" --require ").append(shell_quote(feature));
  }
  command += " --filter " + shell_quote(spec.id);
  // Plugin runs use no conformance suite.
  if (!default_suite && arguments.empty()) command += " --suite " + shell_quote(suite_dir.string());
  // The runtime decides device names and ids: a repro runs on the same one.
  command += " --runtime " + runtime::active_runtime_name();
  return command;
}

}  // namespace dlpack_usm::suite
