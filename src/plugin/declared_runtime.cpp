#include "plugin/declared_runtime.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "dlpack_usm/plugin.h"

namespace dlpack_usm::plugin {
namespace {

// Loading a SYCL library starts its runtime's constructors: seconds, not
// minutes, on every machine measured.
constexpr std::chrono::seconds kDeadline{30};
// The longest declaration read ("opencl" is 6 bytes).
constexpr std::size_t kMaxName = 32;

std::string read_declaration(const std::string& path) {
  std::string load_path = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(load_path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) return "";
  const auto* name = static_cast<const char*>(dlsym(handle, DLPACK_USM_PLUGIN_RUNTIME_SYMBOL));
  return name == nullptr ? "" : std::string(name, strnlen(name, kMaxName));
}

}  // namespace

std::string declared_runtime(const std::string& path) {
  ContainedAnswer answer =
      call_contained([&path] { return read_declaration(path); }, kDeadline, kMaxName);
  // A library that cannot be loaded, or dies loading, declares nothing
  // here: its cases load it again and are charged with it.
  if (!answer.ok()) return "";
  if (answer.text.empty() || answer.text == "sycl" || answer.text == "opencl") return answer.text;
  fail_usage(fmt::format("{} declares {} \"{}\", a runtime the tool does not know", path,
                         DLPACK_USM_PLUGIN_RUNTIME_SYMBOL, printable(answer.text)),
             "write DLPACK_USM_PLUGIN_RUNTIME(\"sycl\") for a library that takes SYCL's "
             "handles, or nothing (OpenCL's); see man dlpack-usm-plugin");
}

}  // namespace dlpack_usm::plugin
