// The one error type of the tool: what went wrong, where, and what to do
// about it, plus the exit code class it belongs to.
#pragma once

#include <stdexcept>
#include <string>

namespace dlpack_usm {

// Exit codes shared by every command; documented in dlpack-usm(1).
enum class ExitCode : int {
  ok = 0,
  findings = 1,     // the thing checked broke a rule (or the gate failed)
  usage = 2,        // bad command line or unreadable input file
  environment = 3,  // no OpenCL loader, no platform, no such device, unwritable output
  internal = 4,     // a bug of the tool
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string what, std::string hint = {})
      : std::runtime_error(std::move(what)), code_(code), hint_(std::move(hint)) {}

  ExitCode code() const { return code_; }
  // What the user can do about it; empty when there is nothing useful to say.
  const std::string& hint() const { return hint_; }

 private:
  ExitCode code_;
  std::string hint_;
};

[[noreturn]] inline void fail_usage(std::string what, std::string hint = {}) {
  throw Error(ExitCode::usage, std::move(what), std::move(hint));
}
[[noreturn]] inline void fail_environment(std::string what, std::string hint = {}) {
  throw Error(ExitCode::environment, std::move(what), std::move(hint));
}

}  // namespace dlpack_usm
