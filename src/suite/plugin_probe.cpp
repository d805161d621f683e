#include "suite/plugin_probe.hpp"

#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/runtime_choice.hpp"
#include "suite/child_process.hpp"
#include "suite/plugin_session.hpp"
#include "suite/runner.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kErrorPrefix = "dlpack-usm: error: ";
constexpr const char* kHintPrefix = "dlpack-usm: hint: ";

std::string line_after(const std::string& text, const char* prefix) {
  std::size_t at = text.rfind(prefix);
  if (at == std::string::npos) return {};
  at += std::strlen(prefix);
  return text.substr(at, text.find('\n', at) - at);
}

void wait_for(ChildProcess& child) {
  while (!child.output_closed() && !child.past_deadline()) {
    std::vector<int> fds = child.open_fds();
    std::vector<pollfd> polled;
    for (int fd : fds) polled.push_back({fd, POLLIN, 0});
    if (poll(polled.data(), polled.size(), 200) > 0) {
      for (const pollfd& p : polled) {
        if (p.revents != 0) child.read_from(p.fd);
      }
    }
  }
  if (child.past_deadline() && !child.output_closed()) {
    child.kill_group();
    child.wait();
    return;
  }
  while (!child.reap(false)) {
    if (child.past_deadline()) {
      child.kill_group();
      child.wait();
      return;
    }
    poll(nullptr, 0, 20);
  }
}

}  // namespace

nlohmann::json probe_plugins(const std::string& self, const std::vector<plugin::PluginSpec>& specs,
                             std::chrono::milliseconds timeout) {
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
  std::string names;
  for (const plugin::PluginSpec& spec : specs) names += (names.empty() ? "" : ", ") + spec.text();
  if (child.timed_out()) {
    fail_usage(fmt::format("loading {} did not finish within {} ms", names, timeout.count()),
               "a library under test must load and return from dlpack_usm_plugin() promptly");
  }
  if (!child.exited()) {
    fail_usage(fmt::format("loading {} crashed the process (signal {})", names, child.signal()),
               "run the library's constructors and dlpack_usm_plugin() under a debugger");
  }
  if (child.exit_code() != 0) {
    std::string what = line_after(child.err(), kErrorPrefix);
    if (what.empty()) {
      fail_usage(fmt::format("loading {} failed with exit code {}", names, child.exit_code()),
                 child.err());
    }
    int code = child.exit_code();
    throw Error(code == 3   ? ExitCode::environment
                : code == 4 ? ExitCode::internal
                            : ExitCode::usage,
                what, line_after(child.err(), kHintPrefix));
  }
  std::size_t marker = child.out().rfind(kResultMarker);
  nlohmann::json described =
      marker == std::string::npos
          ? nlohmann::json()
          : nlohmann::json::parse(child.out().substr(marker + std::strlen(kResultMarker)), nullptr,
                                  false);
  if (!described.is_array()) {
    fail_usage(fmt::format("loading {} printed no description", names),
               "a library under test must not close or redirect the process's stdout");
  }
  return described;
}

int describe_plugins_in_child(const std::vector<plugin::PluginSpec>& specs) {
  nlohmann::json described = nlohmann::json::array();
  std::vector<std::unique_ptr<PluginSession>> sessions;
  for (const plugin::PluginSpec& spec : specs) {
    sessions.push_back(std::make_unique<PluginSession>(runtime::active_runtime(), spec));
    described.push_back(sessions.back()->describe());
  }
  std::fflush(stdout);
  fmt::print("\n{}{}\n", kResultMarker, described.dump());
  std::fflush(stdout);
  return 0;
}

}  // namespace dlpack_usm::suite
