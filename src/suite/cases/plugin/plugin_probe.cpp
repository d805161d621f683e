#include "suite/cases/plugin/plugin_probe.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "runtime/contained_call.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/runner/child_process.hpp"
#include "suite/runner/stop_signals.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kErrorPrefix = "dlpack-usm: error: ";
constexpr const char* kHintPrefix = "dlpack-usm: hint: ";
constexpr const char* kDescribedKey = "described";

std::string line_after(const std::string& text, const char* prefix) {
  std::size_t at = text.rfind(prefix);
  if (at == std::string::npos) return {};
  at += std::strlen(prefix);
  return text.substr(at, text.find('\n', at) - at);
}

// Reads the child until it ended (output closed and reaped); kills it at its
// deadline or on a stop signal.
void wait_for(ChildProcess& child) {
  for (;;) {
    if (child.output_closed() && child.reap()) return;
    if (child.past_deadline() || stop_requested()) {
      child.kill_group();
      child.wait();
      return;
    }
    std::vector<pollfd> polled;
    for (int fd : child.open_fds()) polled.push_back({fd, POLLIN, 0});
    if (poll(polled.data(), polled.size(), polled.empty() ? 20 : 200) <= 0) continue;
    for (const pollfd& p : polled) {
      if (p.revents != 0) child.read_from(p.fd);
    }
  }
}

// The descriptions the child sent, framed with its nonce; Error(usage) for
// a line without it (the library wrote on the channel).
std::optional<nlohmann::json> description_of(ChildProcess& child, const std::string& names) {
  std::optional<nlohmann::json> described;
  for (const std::string& line : child.take_result_lines()) {
    std::optional<std::string_view> payload = unframe_line(line, child.nonce());
    nlohmann::json json =
        payload ? nlohmann::json::parse(*payload, nullptr, false) : nlohmann::json();
    if (!json.is_object() || !json.contains(kDescribedKey) || !json[kDescribedKey].is_array()) {
      fail_usage(fmt::format("loading {}: its result channel carried {}, so the library wrote "
                             "on it",
                             names, quote_for_message(line, 120)),
                 "a library under test must leave descriptors it did not open alone");
    }
    described = json[kDescribedKey];
  }
  return described;
}

// The child ended before it described the libraries: what it said, or how
// it ended.
[[noreturn]] void fail_loading(const ChildProcess& child, const std::string& names,
                               std::chrono::milliseconds timeout) {
  if (child.timed_out()) {
    fail_usage(fmt::format("loading {} did not finish within {} ms", names, timeout.count()),
               "a library under test must load and return from dlpack_usm_plugin() promptly");
  }
  if (!child.exited()) {
    fail_usage(fmt::format("loading {} crashed the process (signal {})", names, child.signal()),
               "run the library's constructors and dlpack_usm_plugin() under a debugger");
  }
  std::string what = line_after(child.err(), kErrorPrefix);
  if (what.empty()) {
    fail_usage(fmt::format("loading {} {}", names,
                           child.exit_code() == 0
                               ? "ended the process before it described the library"
                               : fmt::format("failed with exit code {}", child.exit_code())),
               child.err());
  }
  int code = child.exit_code();
  throw Error(code == 3   ? ExitCode::environment
              : code == 4 ? ExitCode::internal
                          : ExitCode::usage,
              what, line_after(child.err(), kHintPrefix));
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

std::optional<nlohmann::json> probe_plugins(const std::string& self,
                                            const std::vector<plugin::PluginSpec>& specs,
                                            std::chrono::milliseconds case_timeout) {
  std::chrono::milliseconds timeout =
      runtime::probe_deadline(std::max(case_timeout, std::chrono::milliseconds(30000)));
  std::vector<std::string> argv{self,
                                "check",
                                "--probe-plugins",
                                "--runtime",
                                runtime::active_runtime_name(),
                                "--runner-pid",
                                std::to_string(getpid())};
  for (const std::string& argument : plugin::plugin_arguments(specs)) argv.push_back(argument);
  ChildProcess child(argv, timeout);
  wait_for(child);
  if (stop_requested()) return std::nullopt;
  std::string names;
  for (const plugin::PluginSpec& spec : specs) names += (names.empty() ? "" : ", ") + spec.text();
  std::optional<nlohmann::json> described = description_of(child, names);
  if (!described) fail_loading(child, names, timeout);
  require_clean_exit(child, names, *described, timeout);
  return described;
}

int describe_plugins_in_child(ResultChannel& channel,
                              const std::vector<plugin::PluginSpec>& specs) {
  nlohmann::json described = nlohmann::json::array();
  std::vector<std::unique_ptr<PluginSession>> sessions;
  for (const plugin::PluginSpec& spec : specs) {
    sessions.push_back(std::make_unique<PluginSession>(runtime::active_runtime(), spec));
    described.push_back(sessions.back()->describe());
  }
  nlohmann::json message{{kDescribedKey, described}};
  return channel.send(message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) ? 0
                                                                                              : 1;
}

}  // namespace dlpack_usm::suite
