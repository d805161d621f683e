#include "suite/cases/python/python_probe.hpp"

#include <unistd.h>

#include <algorithm>

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

}  // namespace

std::optional<nlohmann::json> probe_python(const std::string& self, const std::string& suite_dir,
                                           const PythonTarget& target,
                                           std::chrono::milliseconds case_timeout) {
  std::chrono::milliseconds timeout =
      probe_deadline(std::max(case_timeout, std::chrono::milliseconds(60000)));
  ChildProcess child(python_worker_argv(self, target.setup, suite_dir, getpid()), timeout,
                     describe_input(target));
  wait_for_child(child);
  if (stop_requested()) return std::nullopt;
  std::optional<nlohmann::json> described = answer_of(child, target);
  if (!described || !described->is_array() || described->size() != 1 ||
      !(*described)[0].is_object()) {
    fail_probe(child, target, timeout);
  }
  return (*described)[0];
}

}  // namespace dlpack_usm::suite
