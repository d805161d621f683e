// Loading a library under test: dlopen (RTLD_NOW | RTLD_LOCAL, so a missing
// dependency shows at once and its symbols stay its own), its entry point,
// and the validated table it returns. Every call into the library happens in
// a child process of `check`; this file only makes those calls.
#pragma once

#include <string>

#include "dlpack_usm/plugin.h"
#include "plugin/plugin_spec.hpp"

namespace dlpack_usm::plugin {

class PluginLibrary {
 public:
  // Throws Error(usage) when the file is missing or cannot be loaded, with
  // the loader's reason (a missing dependency, another architecture).
  explicit PluginLibrary(const std::string& path);
  // The library stays loaded until the process exits: its threads, atexit
  // handlers or driver state may outlive any point where closing is safe.
  ~PluginLibrary() = default;
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  void* symbol(const std::string& name) const;  // nullptr when absent
  const std::string& path() const { return path_; }

 private:
  void* handle_ = nullptr;
  std::string path_;
};

struct PluginTable {
  const DlpackUsmPlugin* table = nullptr;
  std::string name;
  std::string version;
};

// Calls dlpack_usm_plugin(host) and validates what it returns: not NULL,
// struct_size covering ABI 1's fields, abi_version DLPACK_USM_PLUGIN_ABI_VERSION,
// a name, and the function `role` needs. Throws Error(usage) naming the
// library and what to fix.
PluginTable load_plugin_table(const PluginLibrary& library, const DlpackUsmHost& host, Role role);

// The same for a library driven through its exchange API, whose
// dlpack_usm_plugin entry is optional (it only hands the library the host
// table); nullopt-like empty table when it has none.
PluginTable load_optional_plugin_table(const PluginLibrary& library, const DlpackUsmHost& host);

}  // namespace dlpack_usm::plugin
