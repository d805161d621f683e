// Runs the built dlpack-usm binary as a user would: arguments, environment
// changes, captured stdout and stderr, and the exit code; in the background
// too, for tests that signal it while it runs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlpack_usm::e2e {

struct ToolResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
  bool timed_out = false;  // RunningTool::finish ran out of time and killed it
};

struct ToolEnvironment {
  // Variables to set (a value) or remove (nullopt) for this run only.
  std::map<std::string, std::optional<std::string>> changes;
  std::string stdin_text;
};

ToolResult run_tool(const std::vector<std::string>& arguments, const ToolEnvironment& env = {});

// The binary running in a process group of its own (so that a test can end
// whatever it left); killed with its group if the test did not finish it.
class RunningTool {
 public:
  RunningTool(const std::vector<std::string>& arguments, const ToolEnvironment& env = {});
  RunningTool(const RunningTool&) = delete;
  RunningTool& operator=(const RunningTool&) = delete;
  ~RunningTool();

  pid_t pid() const { return pid_; }
  void signal(int number) const;
  // Reads its output until it ends, at most `limit`: past that its process
  // group is killed and the result says timed_out.
  ToolResult finish(std::chrono::milliseconds limit);

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool reaped_ = false;
};

// A FIFO that fixture libraries write a line to when they get somewhere
// (DLPACK_USM_FIXTURE_NOTIFY names it), so that a test waits on the event
// itself rather than sleeping.
class Notifications {
 public:
  explicit Notifications(std::filesystem::path path);
  Notifications(const Notifications&) = delete;
  Notifications& operator=(const Notifications&) = delete;
  ~Notifications();

  const std::filesystem::path& path() const { return path_; }
  // True once a line `event` arrived, false after `limit`.
  bool wait_for(const std::string& event, std::chrono::milliseconds limit);

 private:
  std::filesystem::path path_;
  int read_fd_ = -1;
  int keep_open_fd_ = -1;  // a writer of our own: no end of file between writers
  std::string received_;
};

// Path of a file in the source tree, for test data.
std::string source_path(const std::string& relative);

// The whole content of a file ("" when it cannot be read).
std::string read_file(const std::string& path);

}  // namespace dlpack_usm::e2e
