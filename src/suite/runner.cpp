#include "suite/runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

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

// The case a worker was running when it ended or hung without reporting it:
// the crash or timeout is charged to that case alone.
CaseResult charge_running_case(const CaseSpec& spec, const ChildProcess& child,
                               std::chrono::milliseconds timeout, double duration_ms) {
  CaseResult result;
  result.id = spec.id;
  if (child.timed_out()) {
    result.outcome = Outcome::timeout;
    result.message =
        fmt::format("no result within {} ms; the watchdog killed the case", timeout.count());
  } else if (!child.exited()) {
    result.outcome = Outcome::crash;
    result.message = fmt::format("the case died on {}", signal_name(child.signal()));
  } else {
    // exit(), even exit(0), from inside the case: it never reported.
    result.outcome = Outcome::crash;
    result.message = fmt::format(
        "the case ended its process (exit code {}) before reporting a result", child.exit_code());
  }
  if (!child.err().empty()) result.message += "; its stderr ended with: " + tail_of(child.err());
  const std::string& rule = result.outcome == Outcome::crash ? spec.crash_rule : spec.timeout_rule;
  if (!rule.empty()) {
    // A library's crash or hang breaks the case's rule, at its severity: on
    // an invalid tensor only a warning (nothing requires a consumer to
    // validate), so the case warns instead of failing.
    rules::Severity severity = catalog_severity(rule);
    result.add_finding({rule, severity, result.message});
    if (severity != rules::Severity::error) {
      result.message =
          fmt::format("{} (rule {}, a {})", result.message, rule, rules::to_string(severity));
      result.outcome = outcome_of(result.findings);
    }
  }
  result.duration_ms = duration_ms;
  return result;
}

struct Pending {
  std::size_t index;
  int attempt;
  std::optional<Outcome> first_outcome;
};

// A worker: one child running a batch of cases in order, reporting each on
// its result channel; `next` is the case it is running now.
struct Active {
  std::vector<Pending> batch;
  std::size_t next = 0;
  ChildProcess child;
  ChildProcess::Clock::time_point case_started;
  bool ready = false;  // the worker said kWorkerReadyLine
};

double milliseconds_since(ChildProcess::Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(ChildProcess::Clock::now() - start).count();
}

// A string member of a worker's line, or "" where it is absent or not one.
std::string text_member(const nlohmann::json& line, const char* key) {
  auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The findings a worker reported, each at the severity of this binary's
// catalog (a worker reports what it saw, not how much it weighs).
void add_findings_from_line(CaseResult& result, const nlohmann::json& line) {
  auto findings = line.find("findings");
  if (findings == line.end() || !findings->is_array()) return;
  for (const auto& finding : *findings) {
    if (!finding.is_object()) continue;
    std::string rule = text_member(finding, "rule_id");
    const rules::RuleInfo* known = rule.empty() ? nullptr : rules::find_rule(rule);
    result.add_finding({rule, known != nullptr ? known->severity : rules::Severity::error,
                        text_member(finding, "message")});
  }
}

}  // namespace

nlohmann::json result_to_json(const CaseResult& result) {
  nlohmann::json findings = nlohmann::json::array();
  for (const CaseFinding& finding : result.findings) {
    findings.push_back({{"rule_id", finding.rule_id}, {"message", finding.message}});
  }
  return {{"id", result.id},
          {"outcome", to_string(result.outcome)},
          {"message", result.message},
          {"rule_ids", result.rule_ids},
          {"findings", findings},
          {"profile_class", result.profile_class},
          {"decline_reason", result.decline_reason}};
}

CaseResult result_from_child_output(const std::string& id, const std::string& out) {
  std::size_t marker = out.rfind(kResultMarker);
  if (marker == std::string::npos) {
    CaseResult result;
    result.id = id;
    result.outcome = Outcome::error;
    result.message = "the case printed no result";
    return result;
  }
  std::size_t start = marker + std::strlen(kResultMarker);
  return result_from_line(id, out.substr(start, out.find('\n', start) - start));
}

CaseResult result_from_line(const std::string& id, const std::string& line) {
  CaseResult result;
  result.id = id;
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  std::optional<Outcome> outcome =
      json.is_object() && json.value("outcome", nlohmann::json()).is_string()
          ? parse_outcome(json["outcome"].get<std::string>())
          : std::nullopt;
  if (!outcome || json.value("id", std::string()) != id) {
    result.outcome = Outcome::error;
    result.message = "the case reported a malformed result: " + tail_of(line, 300);
    return result;
  }
  result.outcome = *outcome;
  result.message = json.value("message", std::string());
  if (json.contains("rule_ids") && json["rule_ids"].is_array()) {
    for (const auto& rule : json["rule_ids"]) {
      if (rule.is_string()) result.rule_ids.push_back(rule.get<std::string>());
    }
  }
  add_findings_from_line(result, json);
  result.profile_class = text_member(json, "profile_class");
  result.decline_reason = text_member(json, "decline_reason");
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
      // Re-run once, alone in a fresh process and at the front, so that a
      // flaky case (or one spoiled by its batch) is told apart from a real
      // failure while the machine is in the same state.
      pending.push_front({job.index, 2, result.outcome});
      return;
    }
    if (options.on_result) options.on_result(result);
    results[job.index] = std::move(result);
  };
  auto announce = [&](const Pending& job) {
    if (job.attempt == 1 && options.on_start) {
      options.on_start(cases[job.index], ++started, cases.size());
    }
  };
  // A re-run goes alone; first runs share a worker, in batches small enough
  // that every job gets work.
  auto next_batch = [&] {
    std::vector<Pending> batch{pending.front()};
    pending.pop_front();
    if (batch.front().attempt != 1) return batch;
    std::size_t fair =
        (pending.size() + 1 + static_cast<std::size_t>(jobs) - 1) / static_cast<std::size_t>(jobs);
    std::size_t size =
        std::clamp<std::size_t>(fair, 1, std::max<std::size_t>(1, options.batch_size));
    while (batch.size() < size && !pending.empty() && pending.front().attempt == 1) {
      batch.push_back(pending.front());
      pending.pop_front();
    }
    return batch;
  };

  while ((!pending.empty() || !active.empty()) && !g_interrupted) {
    while (static_cast<int>(active.size()) < jobs && !pending.empty()) {
      std::vector<Pending> batch = next_batch();
      std::vector<const CaseSpec*> specs;
      for (const Pending& job : batch) specs.push_back(&cases[job.index]);
      announce(batch.front());
      try {
        active.push_back(std::make_unique<Active>(Active{
            batch, 0,
            ChildProcess(options.child_command(specs), std::max<std::chrono::milliseconds>(
                                                           options.timeout, kWorkerStartupTimeout)),
            ChildProcess::Clock::now()}));
      } catch (const Error& error) {
        for (const Pending& job : batch) {
          finish(job, CaseResult{cases[job.index].id, Outcome::error, error.what()});
        }
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
      Active& worker = *active[a];
      ChildProcess& child = worker.child;
      // Each line on the result channel is the result of the running case.
      for (const std::string& line : child.take_result_lines()) {
        bool was_ready = std::exchange(worker.ready, true);
        if (!was_ready) {
          worker.case_started = ChildProcess::Clock::now();
          child.restart_deadline(options.timeout);
          if (line == kWorkerReadyLine) continue;
        }
        if (worker.next >= worker.batch.size()) break;
        const Pending& job = worker.batch[worker.next];
        CaseResult result = result_from_line(cases[job.index].id, line);
        result.duration_ms = milliseconds_since(worker.case_started);
        ++worker.next;
        worker.case_started = ChildProcess::Clock::now();
        child.restart_deadline(options.timeout);
        if (worker.next < worker.batch.size()) announce(worker.batch[worker.next]);
        finish(job, std::move(result));
      }
      bool done = child.output_closed() && child.reap(false);
      if (!done && child.past_deadline()) {
        child.kill_group();
        child.wait();
        done = true;
      }
      if (!done && worker.next >= worker.batch.size() && child.reap(false)) done = true;
      if (!done) {
        ++a;
        continue;
      }
      if (worker.next < worker.batch.size()) {
        // The running case is charged; the rest of the batch goes on in a
        // fresh worker, at the front of the queue.
        const Pending& job = worker.batch[worker.next];
        CaseResult charged = charge_running_case(cases[job.index], child, options.timeout,
                                                 milliseconds_since(worker.case_started));
        std::vector<Pending> rest(
            worker.batch.begin() + static_cast<std::ptrdiff_t>(worker.next) + 1,
            worker.batch.end());
        Pending charged_job = job;
        active.erase(active.begin() + static_cast<std::ptrdiff_t>(a));
        for (auto it = rest.rbegin(); it != rest.rend(); ++it) pending.push_front(*it);
        finish(charged_job, std::move(charged));
        continue;
      }
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(a));
    }
  }

  // Interrupted: whatever did not finish is recorded, so no report is lost.
  for (auto& running : active) running->child.kill_group();
  active.clear();
  std::vector<CaseResult> ordered;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (!results[i]) {
      CaseResult not_run{cases[i].id, Outcome::not_run,
                         "the run was interrupted before this case finished"};
      not_run.attempts = 0;
      if (options.on_result) options.on_result(not_run);
      results[i] = std::move(not_run);
    }
    ordered.push_back(std::move(*results[i]));
  }
  return ordered;
}

namespace {

// One line on the result channel; false when the parent is gone.
bool write_line(std::string line) {
  line += '\n';
  for (std::size_t written = 0; written < line.size();) {
    ssize_t n = write(kResultFd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

int run_cases_in_child(CaseSources& sources, const std::vector<std::string>& ids,
                       const std::function<void()>& start_runtime) {
  // The parent reads results on kResultFd; run by hand (no such descriptor)
  // they go to stdout behind the marker instead.
  bool channel = fcntl(kResultFd, F_GETFD) != -1;
  std::set<std::string_view> kinds;
  for (const std::string& id : ids) kinds.insert(std::string_view(id).substr(0, id.find('/')));
  bool runtime_started = !start_runtime;
  std::map<std::string, std::pair<CaseSource*, CaseSpec>> known;
  for (auto& source : sources) {
    if (!kinds.count(source->kind())) continue;
    if (source->needs_runtime() && !runtime_started) {
      start_runtime();
      runtime_started = true;
    }
    for (CaseSpec& spec : source->cases()) {
      std::string id = spec.id;
      known.emplace(std::move(id), std::pair{source.get(), std::move(spec)});
    }
  }
  if (channel && !write_line(kWorkerReadyLine)) return 1;
  for (const std::string& id : ids) {
    CaseResult result;
    result.id = id;
    try {
      auto found = known.find(id);
      if (found == known.end()) {
        result.outcome = Outcome::error;
        result.message = fmt::format("no case with id '{}' on this machine", id);
      } else {
        result = found->second.first->run(found->second.second);
        result.id = id;
      }
    } catch (const std::exception& error) {
      result.outcome = Outcome::error;
      result.message = error.what();
    }
    std::fflush(stdout);
    std::string line =
        result_to_json(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!channel) {
      fmt::print("\n{}{}\n", kResultMarker, line);
      std::fflush(stdout);
      continue;
    }
    if (!write_line(line)) return 1;  // the parent is gone: nothing left to report to
  }
  return 0;
}

}  // namespace dlpack_usm::suite
