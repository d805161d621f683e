// Before any case runs, check loads the libraries under test once in a child
// process (their constructors and entry points are code under test too): a
// missing file, a missing symbol or a wrong ABI becomes a usage error of the
// whole run, and a library that crashes or hangs while loading, or ends its
// process at exit (a destructor that exits or hangs), is reported as such
// instead of taking the runner down.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin/plugin_spec.hpp"
#include "suite/runner/result_channel.hpp"

namespace dlpack_usm::suite {

// Runs `self worker --describe-libraries ...` (worker_protocol.hpp) and returns the libraries'
// descriptions (PluginSession::describe), which the child sends on its
// result channel. Throws the child's Error (same exit code, message and
// hint), or Error(usage) when it crashed, hung or exited before or after
// describing them. nullopt when a stop signal (stop_signals.hpp) ended it.
// The child starts the runtime and loads and unloads every library, which
// on a busy 2-core machine can outlast a short case timeout (tests use 3 s):
// it has the larger of 30 s and `case_timeout`, or DLPACK_USM_PROBE_TIMEOUT_S
// seconds where that is set, as every probe of foreign code does.
std::optional<nlohmann::json> probe_plugins(const std::string& self, const std::string& suite_dir,
                                            const std::vector<plugin::PluginSpec>& specs,
                                            std::chrono::milliseconds case_timeout);

// The child side: loads each library and sends the descriptions on
// `channel`; errors propagate as Error (the worker sends them on the
// channel, and main prints them). The libraries'
// destructors run when the process exits, after that.
int describe_plugins_in_child(ResultChannel& channel, const std::vector<plugin::PluginSpec>& specs);

}  // namespace dlpack_usm::suite
