#include "suite/cases/plugin/plugin_snippet.hpp"

#include <unistd.h>

#include <filesystem>

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

// `text` as a C string literal: quotes, backslashes and every byte outside
// printable ASCII escaped (octal, which no following digit can extend).
std::string c_literal(const std::string& text) {
  std::string literal = "\"";
  for (unsigned char c : text) {
    if (c == '\\' || c == '"') {
      literal += '\\';
      literal += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f && c != '?') {
      literal += static_cast<char>(c);
    } else {
      literal += fmt::format("\\{:03o}", c);
    }
  }
  return literal + "\"";
}

// The C program's opening: both libraries loaded, the bridge's function
// `bridge_function` (whose second argument is an `asked`) and the plugin's
// table looked up, the host table made.
std::string program_head(const SnippetTarget& target, const std::string& bridge_function,
                         const std::string& asked) {
  return fmt::format(
      "#include <dlfcn.h>\n"
      "#include <stdio.h>\n"
      "#include <string.h>\n"
      "#include <dlpack_usm/dlpack_abi.h>\n"
      "#include <dlpack_usm/plugin.h>\n"
      "\n"
      "int main(void) {{\n"
      "  void* bridge = dlopen({bridge}, RTLD_NOW);\n"
      "  void* library = dlopen({library}, RTLD_NOW);\n"
      "  if (!bridge || !library) {{ fprintf(stderr, \"%s\\n\", dlerror()); return 2; }}\n"
      "  int (*host_of)(const char*, const DlpackUsmHost**, char**) =\n"
      "      (int (*)(const char*, const DlpackUsmHost**, char**))dlsym(bridge,\n"
      "          \"dlpack_usm_bridge_plugin_host\");\n"
      "  int (*ask)(const char*, {asked}, char**) =\n"
      "      (int (*)(const char*, {asked}, char**))dlsym(bridge, \"{function}\");\n"
      "  const DlpackUsmPlugin* (*entry)(const DlpackUsmHost*) =\n"
      "      (const DlpackUsmPlugin* (*)(const DlpackUsmHost*))dlsym(library,\n"
      "          DLPACK_USM_PLUGIN_ENTRY);\n"
      "  const DlpackUsmHost* host = NULL;\n"
      "  char* answer = NULL;\n"
      "  if (!host_of || !ask || !entry || host_of({runtime}, &host, &answer) != 0) {{\n"
      "    fprintf(stderr, \"no host table: %s\\n\", answer ? answer : dlerror());\n"
      "    return 3;\n"
      "  }}\n"
      "  const DlpackUsmPlugin* plugin = entry(host);\n",
      fmt::arg("bridge", c_literal(target.files.bridge_library)),
      fmt::arg("library", c_literal(target.library)), fmt::arg("asked", asked),
      fmt::arg("function", bridge_function), fmt::arg("runtime", c_literal(target.runtime)));
}

// Writes the program, compiles it and runs it: one paste.
std::string here_document(const ToolFiles& files, const std::string& program) {
  std::string include =
      files.include_dir.empty() ? std::string() : " -I" + shell_word(files.include_dir);
  return "cat > dlpack_usm_repro.c <<'EOF'\n" + program +
         "EOF\n"
         "cc -g dlpack_usm_repro.c -o dlpack_usm_repro" +
         include + " -ldl && ./dlpack_usm_repro";
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
  // As the Python package finds it: DLPACK_USM_LIBRARY, then the build
  // tree's (beside the binary), then an install's; else the loader's search.
  files.bridge_library = "libdlpack_usm.so.1";
  const char* chosen = std::getenv("DLPACK_USM_LIBRARY");
  if (chosen != nullptr && *chosen != '\0') {
    files.bridge_library = chosen;
  } else if (has_file(bin / "libdlpack_usm.so.1")) {
    files.bridge_library = (bin / "libdlpack_usm.so.1").string();
  } else if (fs::path installed = prefix / DLPACK_USM_INSTALL_LIBDIR / "libdlpack_usm.so.1";
             has_file(installed)) {
    files.bridge_library = installed.lexically_normal().string();
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
  std::string program =
      program_head(target, "dlpack_usm_bridge_consumer_offer", "void**") +
      fmt::format(
          "  void* tensor = NULL;\n"
          "  if (ask({}, &tensor, &answer) != 0 || !tensor) {{\n"
          "    fprintf(stderr, \"no tensor: %s\\n\", answer ? answer : \"\");\n"
          "    return 3;\n"
          "  }}\n"
          "  if (!plugin || !plugin->consume) {{ fprintf(stderr, \"no consume\\n\"); return 2; }}\n"
          "  printf(\"offered: %s\\n\", answer);\n"
          "  fflush(stdout);\n"
          "  int versioned = strstr(answer, \"\\\"dltensor_versioned\\\"\") != NULL;\n"
          "  DlpackUsmConsumeResult result = {{sizeof result}};\n"
          "  int status = plugin->consume(host, tensor, versioned, &result);\n"
          "  printf(\"consume returned %d, accepted %d: %s\\n\", status, result.accepted,\n"
          "         result.reason);\n"
          "  return 0;\n"
          "}}\n",
          c_literal(request));
  return here_document(target.files, program);
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
  std::string program =
      program_head(target, "dlpack_usm_bridge_produce_request", "const DlpackUsmProduceRequest**") +
      fmt::format(
          "  const DlpackUsmProduceRequest* request = NULL;\n"
          "  if (ask({}, &request, &answer) != 0) {{\n"
          "    fprintf(stderr, \"no request: %s\\n\", answer ? answer : \"\");\n"
          "    return 3;\n"
          "  }}\n"
          "  if (!plugin || !plugin->produce) {{ fprintf(stderr, \"no produce\\n\"); return 2; }}\n"
          "  printf(\"asked: %s\\n\", answer);\n"
          "  fflush(stdout);\n"
          "  void* tensor = NULL;\n"
          "  char message[256] = \"\";\n"
          "  int status = plugin->produce(host, request, &tensor, message, sizeof message);\n"
          "  printf(\"produce returned %d: %s\\n\", status, message);\n"
          "  if (status == DLPACK_USM_OK && tensor && request->dlpack_major >= 1) {{\n"
          "    DLManagedTensorVersioned* made = tensor;\n"
          "    if (made->deleter) made->deleter(made);\n"
          "  }} else if (status == DLPACK_USM_OK && tensor) {{\n"
          "    DLManagedTensor* made = tensor;\n"
          "    if (made->deleter) made->deleter(made);\n"
          "  }}\n"
          "  return 0;\n"
          "}}\n",
          c_literal(request));
  return here_document(target.files, program);
}

}  // namespace dlpack_usm::suite
