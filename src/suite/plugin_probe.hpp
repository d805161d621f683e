// Before any case runs, check loads the libraries under test once in a child
// process (their constructors and entry points are code under test too): a
// missing file, a missing symbol or a wrong ABI becomes a usage error of the
// whole run, and a library that crashes or hangs while loading is reported
// as such instead of taking the runner down.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin/plugin_spec.hpp"

namespace dlpack_usm::suite {

// Runs `self check --probe-plugins ARGS` and returns the libraries'
// descriptions (PluginSession::describe). Throws the child's Error (same
// exit code, message and hint), or Error(usage) when it crashed or hung.
nlohmann::json probe_plugins(const std::string& self, const std::vector<plugin::PluginSpec>& specs,
                             std::chrono::milliseconds timeout);

// The child side: loads each library, prints the marker line with the
// descriptions; errors propagate as Error (main prints them).
int describe_plugins_in_child(const std::vector<plugin::PluginSpec>& specs);

}  // namespace dlpack_usm::suite
