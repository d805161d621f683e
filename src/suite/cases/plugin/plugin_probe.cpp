#include "suite/cases/plugin/plugin_probe.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/runner/child_poll.hpp"
#include "suite/runner/child_process.hpp"
#include "suite/runner/stop_signals.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {
namespace {

// What the child answered on its channel (worker_protocol.hpp): the
// descriptions, or the Error that ended it. Error(usage) for any other line
// (the library wrote on the channel).
struct ProbeAnswer {
  std::optional<nlohmann::json> described;
  std::optional<Error> error;
};

ProbeAnswer answer_of(ChildProcess& child, const std::string& names) {
  ProbeAnswer answer;
  for (const std::string& line : child.take_result_lines()) {
    std::optional<std::string_view> payload = unframe_line(line, child.nonce());
    if (payload && (answer.described = described_from_line(*payload))) continue;
    if (payload && (answer.error = error_from_line(*payload))) continue;
    fail_usage(fmt::format("loading {}: its result channel carried {}, so the library wrote "
                           "on it",
                           names, quote_for_message(line, 120)),
               "a library under test must leave descriptors it did not open alone");
  }
  return answer;
}

// The child ended before it described the libraries: the Error it sent, or
// how it ended.
[[noreturn]] void fail_loading(const ChildProcess& child, const ProbeAnswer& answer,
                               const std::string& names, std::chrono::milliseconds timeout) {
  if (child.timed_out()) {
    fail_usage(fmt::format("loading {} did not finish within {} ms", names, timeout.count()),
               "a library under test must load and return from dlpack_usm_plugin() promptly");
  }
  if (!child.exited()) {
    fail_usage(fmt::format("loading {} crashed the process (signal {})", names, child.signal()),
               "run the library's constructors and dlpack_usm_plugin() under a debugger");
  }
  if (answer.error) throw *answer.error;
  fail_usage(fmt::format("loading {} {}", names,
                         child.exit_code() == 0
                             ? "ended the process before it described the library"
                             : fmt::format("failed with exit code {}", child.exit_code())),
             child.err());
}

// The libraries loaded and described themselves; the process then had to
// end, running their destructors and atexit handlers. Error(usage) when
// it did not end well: every program that unloads such a library would.
void require_clean_exit(const ChildProcess& child, const std::string& names,
                        const nlohmann::json& described, std::chrono::milliseconds timeout) {
  std::string how = child.timed_out() ? fmt::format("did not end within {} ms", timeout.count())
                    : !child.exited() ? fmt::format("died on signal {}", child.signal())
                    : child.exit_code() != 0 ? fmt::format("exited with code {}", child.exit_code())
                                             : std::string();
  if (how.empty()) return;
  std::string who;
  for (const nlohmann::json& library : described) {
    who += fmt::format("{}{} {}", who.empty() ? "" : ", ", library.value("name", "?"),
                       library.value("version", "?"));
  }
  fail_usage(fmt::format("{} loaded and described itself ({}), then its process {} at exit, "
                         "where the library's destructors and atexit handlers run",
                         names, who, how),
             "a library's destructors and atexit handlers must return: every program that "
             "unloads the library or exits would end the same way");
}

}  // namespace

std::optional<nlohmann::json> probe_plugins(const std::string& self, const std::string& suite_dir,
                                            const std::vector<plugin::PluginSpec>& specs,
                                            std::chrono::milliseconds case_timeout) {
  std::chrono::milliseconds timeout =
      probe_deadline(std::max(case_timeout, std::chrono::milliseconds(30000)));
  WorkerJob job;
  job.task = WorkerJob::Task::describe_libraries;
  job.runtime = runtime::active_runtime_name();
  job.suite_dir = suite_dir;
  job.plugin_arguments = plugin::plugin_arguments(specs);
  job.runner_pid = getpid();
  ChildProcess child(worker_argv(self, job), timeout);
  wait_for_child(child);
  if (stop_requested()) return std::nullopt;
  std::string names;
  for (const plugin::PluginSpec& spec : specs) names += (names.empty() ? "" : ", ") + spec.text();
  ProbeAnswer answer = answer_of(child, names);
  if (!answer.described) fail_loading(child, answer, names, timeout);
  require_clean_exit(child, names, *answer.described, timeout);
  return answer.described;
}

int describe_plugins_in_child(ResultChannel& channel,
                              const std::vector<plugin::PluginSpec>& specs) {
  nlohmann::json described = nlohmann::json::array();
  std::vector<std::unique_ptr<PluginSession>> sessions;
  for (const plugin::PluginSpec& spec : specs) {
    sessions.push_back(std::make_unique<PluginSession>(runtime::active_runtime(), spec));
    described.push_back(sessions.back()->describe());
  }
  return channel.send(described_line(described)) ? 0 : 1;
}

}  // namespace dlpack_usm::suite
