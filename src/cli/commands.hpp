// Every subcommand registers itself on the CLI11 app through one of these.
// A command's callback stores its exit code in the `Invocation`; errors it
// cannot handle are thrown as dlpack_usm::Error and reported by main().
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dlpack_usm::cli {

// One run of the tool: the command line it was given, and the exit code
// its command leaves for main() to return.
struct Invocation {
  int exit_code = 0;
  std::vector<std::string> command_line;  // as typed, for reports
  // Set by a command that only read the runtimes: once its output is
  // flushed, main() ends the process without the runtimes' own teardown.
  bool skip_runtime_teardown = false;
};

void add_list_devices_command(CLI::App& app, Invocation& invocation);
void add_exchange_command(CLI::App& app, Invocation& invocation);
void add_rules_command(CLI::App& app, Invocation& invocation);
void add_explain_command(CLI::App& app, Invocation& invocation);
void add_check_command(CLI::App& app, Invocation& invocation);
void add_handoff_command(CLI::App& app, Invocation& invocation);
void add_capsule_command(CLI::App& app, Invocation& invocation);
void add_report_command(CLI::App& app, Invocation& invocation);
// Hidden: the worker processes of check.
void add_worker_command(CLI::App& app, Invocation& invocation);

}  // namespace dlpack_usm::cli
