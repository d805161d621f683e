#include "plugin/plugin_library.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"

namespace dlpack_usm::plugin {
namespace {

constexpr const char* kManualHint = "man dlpack-usm-plugin describes the interface";

// The fields ABI 1 defines; a table may be larger (a newer plugin.h).
constexpr std::size_t kPluginAbi1Size = offsetof(DlpackUsmPlugin, consume) + sizeof(void*);

PluginTable validate(const PluginLibrary& library, const DlpackUsmPlugin* table) {
  const std::string& path = library.path();
  if (table == nullptr) {
    fail_usage(fmt::format("{}: {}() returned NULL", path, DLPACK_USM_PLUGIN_ENTRY),
               "return a pointer to a static DlpackUsmPlugin table");
  }
  // ABI 2 only appended to ABI 1's structs, so a library built for ABI 1
  // reads the host table it gets as before.
  if (table->abi_version < DLPACK_USM_PLUGIN_ABI_OLDEST ||
      table->abi_version > DLPACK_USM_PLUGIN_ABI_VERSION) {
    fail_usage(fmt::format("{} was built for plugin ABI version {}; this dlpack-usm speaks "
                           "versions {} to {}",
                           path, table->abi_version, DLPACK_USM_PLUGIN_ABI_OLDEST,
                           DLPACK_USM_PLUGIN_ABI_VERSION),
               "rebuild the library against the dlpack_usm/plugin.h this tool installs");
  }
  if (table->struct_size < kPluginAbi1Size) {
    fail_usage(fmt::format("{}: DlpackUsmPlugin.struct_size is {}, smaller than ABI {}'s {} bytes",
                           path, table->struct_size, DLPACK_USM_PLUGIN_ABI_OLDEST, kPluginAbi1Size),
               "set struct_size = sizeof(DlpackUsmPlugin)");
  }
  if (table->name == nullptr || table->name[0] == '\0') {
    fail_usage(fmt::format("{}: the plugin table has no name", path),
               "set DlpackUsmPlugin.name; reports name the library by it");
  }
  // The library's own text reaches reports and terminals: control bytes and
  // bytes that are not UTF-8 are escaped here, once, as \xNN.
  return PluginTable{table, printable(table->name),
                     table->version != nullptr ? printable(table->version) : ""};
}

const DlpackUsmPlugin* call_entry(void* entry, const DlpackUsmHost& host) {
  auto function = reinterpret_cast<DlpackUsmPluginEntry>(entry);
  return function(&host);
}

}  // namespace

PluginLibrary::PluginLibrary(const std::string& path) : path_(path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    fail_usage(fmt::format("no such library: {}", path),
               "check the path; a relative path is taken from the current directory");
  }
  // A path without '/' would make dlopen search the system's directories.
  std::string load_path = path.find('/') == std::string::npos ? "./" + path : path;
  handle_ = dlopen(load_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    fail_usage(fmt::format("cannot load {}: {}", path, why != nullptr ? why : "unknown reason"),
               "check that it is a shared library for this machine and that its dependencies "
               "are found (ldd)");
  }
}

void* PluginLibrary::symbol(const std::string& name) const {
  dlerror();
  return dlsym(handle_, name.c_str());
}

PluginTable load_plugin_table(const PluginLibrary& library, const DlpackUsmHost& host, Role role) {
  void* entry = library.symbol(DLPACK_USM_PLUGIN_ENTRY);
  if (entry == nullptr) {
    fail_usage(fmt::format("{} exports no {}() function", library.path(), DLPACK_USM_PLUGIN_ENTRY),
               fmt::format("export it with C linkage (extern \"C\" in C++); for a library that "
                           "only offers DLPackExchangeAPI use --producer LIB:SYMBOL; {}",
                           kManualHint));
  }
  PluginTable loaded = validate(library, call_entry(entry, host));
  if (role == Role::producer && loaded.table->produce == nullptr) {
    fail_usage(fmt::format("--producer {}: plugin '{}' has no produce function", library.path(),
                           loaded.name),
               "set DlpackUsmPlugin.produce, or test it with --consumer");
  }
  if (role == Role::consumer && loaded.table->consume == nullptr) {
    fail_usage(fmt::format("--consumer {}: plugin '{}' has no consume function", library.path(),
                           loaded.name),
               "set DlpackUsmPlugin.consume, or test it with --producer");
  }
  return loaded;
}

PluginTable load_optional_plugin_table(const PluginLibrary& library, const DlpackUsmHost& host) {
  void* entry = library.symbol(DLPACK_USM_PLUGIN_ENTRY);
  if (entry == nullptr) return {};
  return validate(library, call_entry(entry, host));
}

}  // namespace dlpack_usm::plugin
