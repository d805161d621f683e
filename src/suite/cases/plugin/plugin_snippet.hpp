// The standalone snippet a crash report of a C plugin's case gives (issue
// 35): two shell lines that compile the shipped reproduction program
// (share/plugin_repro.c, installed as share/dlpack-usm/plugin_repro.c)
// against plugin.h and run it with the case's own words: consume or
// produce, libdlpack_usm, the library, the runtime and the request. The
// program asks libdlpack_usm (bridge.h, ABI 14) for the host table and the
// very tensor or request the case used, and calls the plugin's consume or
// produce once, with no worker, containment or watchdog around it: the
// crash happens where gdb or a sanitizer sees it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "matrix/live_matrix.hpp"
#include "runtime/device_model.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// Where the snippet finds the tool's files: plugin.h's folder ("" where
// neither an install's nor the build tree's is there), libdlpack_usm and
// plugin_repro.c ("" where neither an install's nor the source tree's is
// there: then no snippet).
struct ToolFiles {
  std::string include_dir;
  std::string bridge_library;
  std::string repro_source;
};
ToolFiles tool_files();

// What every snippet of a run names: the tool's files, the library's
// absolute path and the runtime ("opencl", "sycl").
struct SnippetTarget {
  ToolFiles files;
  std::string library;
  std::string runtime;
};
// The files found, `library_path` made absolute, the active runtime.
SnippetTarget snippet_target(const std::string& library_path);

// Consumer case `cell` offered in `memory` USM on root device `device_id`
// to the plugin's consume ("" without plugin_repro.c).
std::string plugin_consume_snippet(const SnippetTarget& target, const std::string& cell,
                                   const std::string& memory, std::int32_t device_id);

// Producer case `tensor` on `device` asked of the plugin's produce ("" without
// plugin_repro.c).
std::string plugin_produce_snippet(const SnippetTarget& target, const runtime::DeviceRef& device,
                                   const matrix::MatrixTensor& tensor);

// Sets each case's snippet to what `snippet_of` makes of it on its device
// ("" leaves the case without one).
using SnippetOf = std::function<std::string(const CaseSpec&, const runtime::DeviceInfo&)>;
void add_snippets(const runtime::Inventory& inventory, std::vector<CaseSpec>& cases,
                  const SnippetOf& snippet_of);

}  // namespace dlpack_usm::suite
