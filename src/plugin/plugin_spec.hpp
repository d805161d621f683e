// What `check --producer` / `--consumer` name: a shared library under test,
// and for a library that only offers DLPack's C exchange API, the symbol
// that returns its DLPackExchangeAPI table ("LIB:SYMBOL").
#pragma once

#include <string>
#include <vector>

namespace dlpack_usm::plugin {

enum class Role { producer, consumer };
const char* to_string(Role role);

struct PluginSpec {
  Role role = Role::producer;
  std::string path;
  // Empty: the library speaks plugin.h (dlpack_usm_plugin). Otherwise a
  // function `const DLPackExchangeAPI* SYMBOL(void)` (producers only).
  std::string symbol;

  bool exchange_api() const { return !symbol.empty(); }
  // The option value that names it again, for child processes and repro lines.
  std::string text() const { return exchange_api() ? path + ":" + symbol : path; }
  // "--producer", "--consumer"
  std::string option() const { return role == Role::producer ? "--producer" : "--consumer"; }
};

// "LIB" or "LIB:SYMBOL": the part after the last ':' is a symbol when it is
// a C identifier and the whole text names no file (so a path with a colon
// still works). Throws Error(usage) for an empty value, or a symbol given to
// --consumer (the exchange API has no consumer side the tool can drive).
PluginSpec parse_plugin_spec(Role role, const std::string& text);

// The command-line arguments that name every spec again.
std::vector<std::string> plugin_arguments(const std::vector<PluginSpec>& specs);

}  // namespace dlpack_usm::plugin
