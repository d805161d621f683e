// Runs the built dlpack-usm binary as a user would: arguments, environment
// changes, captured stdout and stderr, and the exit code.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlpack_usm::e2e {

struct ToolResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
};

struct ToolEnvironment {
  // Variables to set (a value) or remove (nullopt) for this run only.
  std::map<std::string, std::optional<std::string>> changes;
  std::string stdin_text;
};

ToolResult run_tool(const std::vector<std::string>& arguments, const ToolEnvironment& env = {});

// Path of a file in the source tree, for test data.
std::string source_path(const std::string& relative);

// The whole content of a file ("" when it cannot be read).
std::string read_file(const std::string& path);

}  // namespace dlpack_usm::e2e
