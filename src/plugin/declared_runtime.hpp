// The runtime whose handles a library under test takes, as it declares it
// (plugin.h's DLPACK_USM_PLUGIN_RUNTIME: the exported string
// dlpack_usm_plugin_runtime), read before `check --runtime auto` chooses a
// runtime. The library is loaded in a child process with a deadline: its
// constructors may crash or hang, and the tool's own process must not have
// loaded it before the runtime it needs is chosen.
#pragma once

#include <string>

namespace dlpack_usm::plugin {

// "sycl", "opencl", or "" where the library declares nothing (or cannot be
// loaded: its cases say why). Throws Error(usage) for a declaration the tool
// does not know, naming the library and the names it knows.
std::string declared_runtime(const std::string& path);

}  // namespace dlpack_usm::plugin
