#include "suite/runner.hpp"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "suite/child_process.hpp"

namespace dlpack_usm::suite {
namespace {

std::atomic<bool> g_interrupted{false};

void note_interrupt(int) {
  g_interrupted = true;
}

// Installs the stop handlers for the duration of a run and restores the old.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = false;
    struct sigaction action {};
    action.sa_handler = note_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string tail_of(const std::string& text, std::size_t bytes = 2000) {
  std::string tail = text.size() > bytes ? "..." + text.substr(text.size() - bytes) : text;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return tail;
}

std::string signal_name(int signal) {
  const char* description = strsignal(signal);
  return fmt::format("signal {} ({})", signal, description != nullptr ? description : "unknown");
}

CaseResult classify(const CaseSpec& spec, const ChildProcess& child,
                    std::chrono::milliseconds timeout) {
  CaseResult result;
  if (child.timed_out()) {
    result.id = spec.id;
    result.outcome = Outcome::timeout;
    result.message =
        fmt::format("no result within {} ms; the watchdog killed the case", timeout.count());
  } else if (!child.exited()) {
    result.id = spec.id;
    result.outcome = Outcome::crash;
    result.message = fmt::format("the case died on {}", signal_name(child.signal()));
  } else {
    result = result_from_child_output(spec.id, child.out());
    if (child.exit_code() != 0 && result.outcome == Outcome::error) {
      result.outcome = Outcome::crash;
      result.message =
          fmt::format("the case exited with code {} before reporting a result", child.exit_code());
    }
  }
  const std::string& rule = result.outcome == Outcome::crash     ? spec.crash_rule
                            : result.outcome == Outcome::timeout ? spec.timeout_rule
                                                                 : std::string();
  if (!rule.empty()) result.rule_ids.push_back(rule);
  if ((result.outcome == Outcome::crash || result.outcome == Outcome::timeout ||
       result.outcome == Outcome::error) &&
      !child.err().empty()) {
    result.message += "; its stderr ended with: " + tail_of(child.err());
  }
  result.duration_ms = child.elapsed_ms();
  return result;
}

struct Pending {
  std::size_t index;
  int attempt;
  std::optional<Outcome> first_outcome;
};

struct Active {
  Pending job;
  ChildProcess child;
};

}  // namespace

nlohmann::json result_to_json(const CaseResult& result) {
  return {{"id", result.id},
          {"outcome", to_string(result.outcome)},
          {"message", result.message},
          {"rule_ids", result.rule_ids}};
}

CaseResult result_from_child_output(const std::string& id, const std::string& out) {
  CaseResult result;
  result.id = id;
  std::size_t marker = out.rfind(kResultMarker);
  if (marker == std::string::npos) {
    result.outcome = Outcome::error;
    result.message = "the case printed no result";
    return result;
  }
  std::size_t start = marker + std::strlen(kResultMarker);
  std::string line = out.substr(start, out.find('\n', start) - start);
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  std::optional<Outcome> outcome =
      json.is_object() && json.value("outcome", nlohmann::json()).is_string()
          ? parse_outcome(json["outcome"].get<std::string>())
          : std::nullopt;
  if (!outcome || json.value("id", std::string()) != id) {
    result.outcome = Outcome::error;
    result.message = "the case printed a malformed result: " + tail_of(line, 300);
    return result;
  }
  result.outcome = *outcome;
  result.message = json.value("message", std::string());
  if (json.contains("rule_ids") && json["rule_ids"].is_array()) {
    for (const auto& rule : json["rule_ids"]) {
      if (rule.is_string()) result.rule_ids.push_back(rule.get<std::string>());
    }
  }
  return result;
}

std::vector<CaseResult> run_isolated(const std::vector<CaseSpec>& cases,
                                     const RunnerOptions& options) {
  InterruptGuard interrupt_guard;
  std::vector<std::optional<CaseResult>> results(cases.size());
  std::deque<Pending> pending;
  for (std::size_t i = 0; i < cases.size(); ++i) pending.push_back({i, 1, std::nullopt});
  std::vector<std::unique_ptr<Active>> active;
  std::size_t started = 0;
  int jobs = std::max(1, options.jobs);

  auto finish = [&](const Pending& job, CaseResult result) {
    result.attempts = job.attempt;
    result.first_outcome = job.first_outcome;
    if (options.rerun_failures && job.attempt == 1 && is_failing(result.outcome) &&
        !g_interrupted) {
      // Re-run once, at the front, so that a flaky case is told apart from a
      // real failure while the machine is in the same state.
      pending.push_front({job.index, 2, result.outcome});
      return;
    }
    if (options.on_result) options.on_result(result);
    results[job.index] = std::move(result);
  };

  while ((!pending.empty() || !active.empty()) && !g_interrupted) {
    while (static_cast<int>(active.size()) < jobs && !pending.empty()) {
      Pending job = pending.front();
      pending.pop_front();
      const CaseSpec& spec = cases[job.index];
      if (job.attempt == 1 && options.on_start) options.on_start(spec, ++started, cases.size());
      try {
        active.push_back(std::make_unique<Active>(
            Active{job, ChildProcess(options.child_command(spec), options.timeout)}));
      } catch (const Error& error) {
        CaseResult failed{spec.id, Outcome::error, error.what(), {}, 0, 1, {}, Verdict::ok};
        finish(job, std::move(failed));
      }
    }

    std::vector<pollfd> fds;
    std::vector<std::size_t> owners;
    auto now = ChildProcess::Clock::now();
    auto wake = now + std::chrono::milliseconds(200);
    for (std::size_t a = 0; a < active.size(); ++a) {
      for (int fd : active[a]->child.open_fds()) {
        fds.push_back({fd, POLLIN, 0});
        owners.push_back(a);
      }
      wake = std::min(wake, active[a]->child.deadline());
    }
    int wait_ms = static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count()));
    int ready = poll(fds.data(), fds.size(), wait_ms);
    if (ready > 0) {
      for (std::size_t f = 0; f < fds.size(); ++f) {
        if (fds[f].revents != 0) active[owners[f]]->child.read_from(fds[f].fd);
      }
    }

    for (std::size_t a = 0; a < active.size();) {
      ChildProcess& child = active[a]->child;
      bool done = child.output_closed() && child.reap(false);
      if (!done && child.past_deadline()) {
        child.kill_group();
        child.wait();
        done = true;
      }
      if (!done) {
        ++a;
        continue;
      }
      Pending job = active[a]->job;
      CaseResult result = classify(cases[job.index], child, options.timeout);
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(a));
      finish(job, std::move(result));
    }
  }

  // Interrupted: whatever did not finish is recorded, so no report is lost.
  for (auto& running : active) running->child.kill_group();
  active.clear();
  std::vector<CaseResult> ordered;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (!results[i]) {
      CaseResult not_run{cases[i].id,
                         Outcome::not_run,
                         "the run was interrupted before this case finished",
                         {},
                         0,
                         0,
                         {},
                         Verdict::ok};
      if (options.on_result) options.on_result(not_run);
      results[i] = std::move(not_run);
    }
    ordered.push_back(std::move(*results[i]));
  }
  return ordered;
}

int run_case_in_child(CaseSources& sources, const std::string& id) {
  CaseResult result;
  result.id = id;
  try {
    bool found = false;
    for (auto& source : sources) {
      for (const CaseSpec& spec : source->cases()) {
        if (spec.id != id) continue;
        result = source->run(spec);
        result.id = id;
        found = true;
        break;
      }
      if (found) break;
    }
    if (!found) {
      result.outcome = Outcome::error;
      result.message = fmt::format("no case with id '{}' on this machine", id);
    }
  } catch (const std::exception& error) {
    result.outcome = Outcome::error;
    result.message = error.what();
  }
  std::fflush(stdout);
  fmt::print("\n{}{}\n", kResultMarker, result_to_json(result).dump());
  std::fflush(stdout);
  return 0;
}

}  // namespace dlpack_usm::suite
