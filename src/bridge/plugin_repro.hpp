// What a C program needs to call a plugin as `check` does, with no tool
// around it (bridge.h, ABI 14): the host table of a runtime and the produce
// request of one tensor of the live matrix. The standalone snippet of a C
// plugin's crash report builds and runs such a program (share/plugin_repro.c),
// so that the crash happens where the plugin's author can run a debugger.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "dlpack_usm/plugin.h"
#include "runtime/runtime.hpp"

namespace dlpack_usm::bridge {

// The host table on `runtime_choice` ("opencl", "sycl", "auto"), made once
// per process; Error(usage) for another choice after the first, or an
// unknown one. `name` is the runtime chosen.
const DlpackUsmHost* plugin_host(const std::string& runtime_choice, std::string& name);

// The runtime plugin_host chose, or nullptr before it was asked; `name`
// (where given) gets its name then.
runtime::Runtime* plugin_host_runtime(std::string* name = nullptr);

// The produce request of one tensor (bridge.h's request_json), on
// plugin_host's runtime; valid until the next call. `info` gets its layout.
const DlpackUsmProduceRequest* produce_request(const nlohmann::json& request,
                                               nlohmann::ordered_json& info);

}  // namespace dlpack_usm::bridge
