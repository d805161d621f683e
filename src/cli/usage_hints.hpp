// Usage errors that say what was typed and what was meant: CLI11's own
// words for an unknown command ("A subcommand is required") or option ("The
// following arguments were not expected") name neither.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dlpack_usm::cli {

// The usage error of `args` (argv without the program) that CLI11 refused,
// when it is an unknown command or an unknown option of a known one:
// "unknown command 'chek' (did you mean 'check'?)". nullopt otherwise, and
// CLI11's message stands.
std::optional<std::string> explain_usage_error(CLI::App& app, const std::vector<std::string>& args);

}  // namespace dlpack_usm::cli
