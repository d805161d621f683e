#include "suite/cases/python/python_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "suite/cases/python/python_worker.hpp"
#include "suite/runner/child_poll.hpp"
#include "suite/runner/child_process.hpp"
#include "suite/runner/stop_signals.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {
namespace {

// What the library is called in messages: "the consumer numpy.from_dlpack".
std::string named(const PythonTarget& target) {
  if (target.role == PythonRole::handoff) {
    return fmt::format("the producer {} and the consumer {}", quote_for_message(target.text, 200),
                       quote_for_message(target.consumer, 200));
  }
  return fmt::format("the {} {}",
                     target.role == PythonRole::library ? "library" : to_string(target.role),
                     quote_for_message(target.text, 200));
}

std::string hint_for(const PythonTarget& target) {
  return fmt::format("run `{} -c \"import {}\"` to see it fail outside the tool",
                     target.setup.interpreter,
                     target.text.substr(0, target.text.find_first_of(".( [")));
}

// How the probe ended without describing the library: the library's doing.
[[noreturn]] void fail_probe(const ChildProcess& child, const PythonTarget& target,
                             std::chrono::milliseconds timeout) {
  std::string how = child.timed_out() ? fmt::format("did not finish within {} ms", timeout.count())
                    : !child.exited()
                        ? fmt::format("crashed (signal {})", child.signal())
                        : fmt::format("ended the process (exit code {})", child.exit_code());
  std::string stderr_tail =
      printable(child.err().substr(child.err().size() > 1500 ? child.err().size() - 1500 : 0));
  throw Error(ExitCode::environment,
              fmt::format("importing {} in {} {}{}", named(target), target.setup.interpreter, how,
                          stderr_tail.empty() ? "" : "; its stderr ended with: " + stderr_tail),
              hint_for(target));
}

// The description on the probe's channel, or the Error it sent; Error
// (usage) for any other line (the library wrote on the channel).
std::optional<nlohmann::json> answer_of(ChildProcess& child, const PythonTarget& target) {
  std::optional<nlohmann::json> described;
  for (const std::string& line : child.take_result_lines()) {
    std::optional<std::string_view> payload = unframe_line(line, child.nonce());
    if (payload && (described = described_from_line(*payload))) continue;
    if (payload) {
      if (std::optional<Error> error = error_from_line(*payload)) throw *error;
    }
    throw Error(ExitCode::environment,
                fmt::format("importing {}: the worker's channel carried {}, so the library "
                            "wrote on it",
                            named(target), quote_for_message(line, 120)),
                "a library under test must leave descriptors it did not open alone");
  }
  return described;
}

// The description `child` sent, or the Error it ended with.
ProbeOutcome settle(ChildProcess& child, const PythonTarget& target,
                    std::chrono::milliseconds timeout) {
  try {
    std::optional<nlohmann::json> described = answer_of(child, target);
    if (!described || !described->is_array() || described->size() != 1 ||
        !(*described)[0].is_object()) {
      fail_probe(child, target, timeout);
    }
    return {(*described)[0], std::nullopt};
  } catch (const Error& error) {
    return {std::nullopt, error};
  }
}

}  // namespace

std::optional<nlohmann::json> probe_python(const std::string& self, const std::string& suite_dir,
                                           const PythonTarget& target,
                                           std::chrono::milliseconds case_timeout) {
  std::optional<std::vector<ProbeOutcome>> outcomes =
      probe_pythons(self, suite_dir, std::span(&target, 1), case_timeout, 1);
  if (!outcomes) return std::nullopt;
  if (outcomes->front().error) throw *outcomes->front().error;
  return outcomes->front().described;
}

std::optional<std::vector<ProbeOutcome>> probe_pythons(const std::string& self,
                                                       const std::string& suite_dir,
                                                       std::span<const PythonTarget> targets,
                                                       std::chrono::milliseconds case_timeout,
                                                       std::size_t jobs) {
  std::chrono::milliseconds timeout =
      probe_deadline(std::max(case_timeout, std::chrono::milliseconds(60000)));
  std::vector<ProbeOutcome> outcomes(targets.size());
  // The probes running, by index; a destroyed ChildProcess kills its group.
  std::vector<std::unique_ptr<ChildProcess>> running(targets.size());
  std::size_t next = 0, active = 0;
  while (next < targets.size() || active > 0) {
    for (; active < std::max<std::size_t>(jobs, 1) && next < targets.size(); ++next, ++active) {
      running[next] = std::make_unique<ChildProcess>(
          python_worker_argv(self, targets[next].setup, suite_dir, getpid()), timeout,
          describe_input(targets[next]));
    }
    if (stop_requested()) return std::nullopt;
    std::vector<ChildProcess*> open;
    auto wake = ChildProcess::Clock::now() + std::chrono::milliseconds(200);
    for (std::size_t i = 0; i < running.size(); ++i) {
      ChildProcess* child = running[i].get();
      if (child == nullptr) continue;
      bool ended = child->output_closed() && child->reap();
      if (!ended && child->past_deadline()) {
        child->kill_group();
        child->wait();
        ended = true;
      }
      if (!ended) {
        open.push_back(child);
        wake = std::min(wake, child->deadline());
        continue;
      }
      outcomes[i] = settle(*child, targets[i], timeout);
      running[i].reset();
      --active;
    }
    if (!open.empty()) read_children(open, wake);
  }
  return outcomes;
}

}  // namespace dlpack_usm::suite
