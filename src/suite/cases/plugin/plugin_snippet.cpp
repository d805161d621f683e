#include "suite/cases/plugin/plugin_snippet.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/shell_quote.hpp"
#include "facts/tensor_facts.hpp"
#include "runtime/selection.hpp"

namespace dlpack_usm::suite {
namespace {

namespace fs = std::filesystem;

bool has_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// The two lines that build the shipped reproduction program and run it on
// one case: `dlpack_usm_repro MODE BRIDGE LIBRARY RUNTIME REQUEST_JSON`,
// each word quoted for the shell. "" where the tool found no copy of the
// program: a snippet that cannot build is worse than the case's repro line
// alone.
std::string repro_command(const SnippetTarget& target, const std::string& mode,
                          const std::string& request_json) {
  const ToolFiles& files = target.files;
  if (files.repro_source.empty()) return {};
  std::string include =
      files.include_dir.empty() ? std::string() : " -I" + shell_word(files.include_dir);
  return fmt::format("cc -g {} -o dlpack_usm_repro{} -ldl &&\n  ./dlpack_usm_repro {} {} {} {} {}",
                     shell_word(files.repro_source), include, mode,
                     shell_word(files.bridge_library), shell_word(target.library),
                     shell_word(target.runtime), shell_word(request_json));
}

// The bridge a pip install put beside its package, under the environment's
// lib/pythonX.Y/site-packages/dlpack_usm/ (the tool is in its bin/): the
// first Python's, in name order, where several hold one.
fs::path wheel_bridge(const fs::path& prefix) {
  std::error_code error;
  std::vector<fs::path> found;
  for (const char* lib : {"lib", "lib64"}) {
    for (fs::directory_iterator it(prefix / lib, error), end; !error && it != end;
         it.increment(error)) {
      fs::path candidate = it->path() / "site-packages" / "dlpack_usm" / "libdlpack_usm.so.1";
      if (it->path().filename().string().starts_with("python") && has_file(candidate)) {
        found.push_back(candidate);
      }
    }
    error.clear();
  }
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path() : found.front().lexically_normal();
}

}  // namespace

ToolFiles tool_files() {
  ToolFiles files;
  std::error_code error;
  fs::path bin = fs::read_symlink("/proc/self/exe", error).parent_path();
  fs::path prefix = bin.parent_path();
  if (has_file(prefix / "include" / "dlpack_usm" / "plugin.h")) {
    files.include_dir = (prefix / "include").lexically_normal().string();
  } else if (has_file(fs::path(DLPACK_USM_SOURCE_INCLUDE_DIR) / "dlpack_usm" / "plugin.h")) {
    files.include_dir = DLPACK_USM_SOURCE_INCLUDE_DIR;
  }
  // The reproduction program from the same place: an install's, else the
  // source tree's.
  if (fs::path installed = prefix / "share" / "dlpack-usm" / "plugin_repro.c";
      has_file(installed)) {
    files.repro_source = installed.lexically_normal().string();
  } else if (fs::path source = fs::path(DLPACK_USM_SOURCE_SHARE_DIR) / "plugin_repro.c";
             has_file(source)) {
    files.repro_source = source.string();
  }
  // As the Python package finds it: DLPACK_USM_LIBRARY, then the build
  // tree's (beside the binary), then an install's, then a pip install's;
  // else the loader's search.
  files.bridge_library = "libdlpack_usm.so.1";
  const char* chosen = std::getenv("DLPACK_USM_LIBRARY");
  if (chosen != nullptr && *chosen != '\0') {
    files.bridge_library = chosen;
  } else if (has_file(bin / "libdlpack_usm.so.1")) {
    files.bridge_library = (bin / "libdlpack_usm.so.1").string();
  } else if (fs::path installed = prefix / DLPACK_USM_INSTALL_LIBDIR / "libdlpack_usm.so.1";
             has_file(installed)) {
    files.bridge_library = installed.lexically_normal().string();
  } else if (fs::path wheel = wheel_bridge(prefix); !wheel.empty()) {
    files.bridge_library = wheel.string();
  }
  return files;
}

SnippetTarget snippet_target(const std::string& library_path) {
  return {tool_files(), fs::absolute(library_path).lexically_normal().string(),
          runtime::active_runtime_name()};
}

void add_snippets(const runtime::Inventory& inventory, std::vector<CaseSpec>& cases,
                  const SnippetOf& snippet_of) {
  for (CaseSpec& spec : cases) {
    if (const runtime::DeviceInfo* device = inventory.find(spec.device); device != nullptr) {
      spec.snippet = snippet_of(spec, *device);
    }
  }
}

std::string plugin_consume_snippet(const SnippetTarget& target, const std::string& cell,
                                   const std::string& memory, std::int32_t device_id) {
  std::string request = nlohmann::json{
      {"cell", cell},
      {"memory", memory},
      {"device_id", device_id},
      {"version", "1.3"}}.dump();
  return repro_command(target, "consume", request);
}

std::string plugin_produce_snippet(const SnippetTarget& target, const runtime::DeviceRef& device,
                                   const matrix::MatrixTensor& tensor) {
  std::string request = nlohmann::json{
      {"device_id", device.root_index},
      {"sub_device", device.sub_index.value_or(-1)},
      {"memory", facts::to_string(tensor.kind)},
      {"dtype", tensor.dtype},
      {"layout", tensor.layout},
      {"version", tensor.version},
      {"read_only",
       tensor.read_only}}.dump();
  return repro_command(target, "produce", request);
}

}  // namespace dlpack_usm::suite
