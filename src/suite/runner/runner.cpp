#include "suite/runner/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "suite/model/result_wording.hpp"
#include "suite/runner/child_poll.hpp"
#include "suite/runner/child_process.hpp"
#include "suite/runner/stderr_account.hpp"
#include "suite/runner/stop_signals.hpp"
#include "suite/runner/worker_calls.hpp"
#include "suite/runner/worker_containment.hpp"
#include "suite/runner/worker_growth.hpp"

namespace dlpack_usm::suite {
namespace {

std::string signal_name(int signal) {
  const char* description = strsignal(signal);
  return fmt::format("signal {} ({})", signal, description != nullptr ? description : "unknown");
}

// " in CALL" where the worker announced the call it was in, else "".
std::string in_call(const WorkerCall& call) {
  return call.call.empty() ? std::string()
                           : fmt::format(" in {}", quote_for_message(call.call, 200));
}

// The case a worker was running when it ended or hung without reporting it:
// the crash or timeout is charged to that case alone, and to the call the
// worker announced, if any.
CaseResult charge_running_case(const CaseSpec& spec, const ChildProcess& child,
                               std::chrono::milliseconds timeout, double duration_ms,
                               const WorkerCall& call) {
  CaseResult result;
  result.id = spec.id;
  if (child.timed_out()) {
    result.outcome = Outcome::timeout;
    result.message = fmt::format("no result within {} ms{}; the watchdog killed the case",
                                 timeout.count(), in_call(call));
  } else if (!child.exited()) {
    result.outcome = Outcome::crash;
    result.message =
        fmt::format("the case died on {}{}", signal_name(child.signal()), in_call(call));
  } else {
    // exit(), even exit(0), from inside the case: it never reported.
    result.outcome = Outcome::crash;
    result.message =
        fmt::format("the case ended its process (exit code {}){} before reporting a result",
                    child.exit_code(), in_call(call));
  }
  result.message += stderr_account(child.err());
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

double milliseconds_since(ChildProcess::Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(ChildProcess::Clock::now() - start).count();
}

// Where a case ran: how many cases its worker ran before it, and the last
// of them.
struct RunContext {
  std::size_t cases_before = 0;
  std::string previous;
};

struct Pending {
  std::size_t index;
  int attempt;
  // On a re-run: the first attempt and where it ran.
  std::optional<CaseResult> first = std::nullopt;
  RunContext first_context = {};
};

// Whether a re-run may share its worker with other re-runs: a failure of the
// case's own checks (fail, error) comes out the same in any process, so
// re-running those one by one would only cost a process start each (an
// interpreter and its imports for a Python library); a crash or a hang is
// re-run alone, where nothing else can be blamed for it.
bool rerun_shares_worker(const Pending& job) {
  return job.first && (job.first->outcome == Outcome::fail || job.first->outcome == Outcome::error);
}

// A worker: one child running a batch of cases in order, reporting each on
// its result channel; `next` is the case it is running now. A worker that
// takes more cases gets further ones on its channel, appended to `batch`.
struct Active {
  std::vector<Pending> batch;
  std::size_t next = 0;
  ChildProcess child;
  ChildProcess::Clock::time_point case_started;
  bool ready = false;    // the worker said kWorkerReadyLine
  WorkerCall call = {};  // the call the running case is in, as announced
};

// A re-run in a fresh process after a failing first attempt. It is a flake
// only where the first attempt was its worker's first case too: a case that
// fails after other cases in one process and passes when re-run depends on
// what ran before it, and the first failure stands.
CaseResult judge_rerun(const CaseResult& first, const RunContext& where, CaseResult rerun) {
  rerun.first_outcome = first.outcome;
  if (is_failing(rerun.outcome) || where.cases_before == 0) return rerun;
  CaseResult state = first;
  state.attempts = rerun.attempts;
  state.first_outcome = first.outcome;
  state.duration_ms = first.duration_ms + rerun.duration_ms;
  // The repro line runs the case alone, where it passes: say how to run it
  // after the case before it.
  state.message = fmt::format(
      "passes in a fresh process, fails after other cases in one process: a state bug (in its "
      "worker it ran after {}{}; {}{}; to see it fail, add --filter '{}' --jobs 1 to the "
      "repro): {}",
      where.previous,
      where.cases_before > 1 ? fmt::format(" and {} more", where.cases_before - 1) : "",
      kFreshProcessEnded, to_string(rerun.outcome), where.previous, first.message);
  return state;
}

// A case turned away by RunnerOptions::skip_reason: not_run with the
// reason, or, when its first attempt failed and it waits for its re-run,
// that attempt's result.
CaseResult turned_away(const CaseSpec& spec, const std::optional<CaseResult>& first,
                       const std::string& reason) {
  if (first) {
    CaseResult result = *first;
    result.attempts = 1;
    result.message = fmt::format("{}{}{})", result.message, kCutReRunOpening, reason);
    return result;
  }
  CaseResult result{spec.id, Outcome::not_run, reason};
  result.attempts = 0;
  return result;
}

// A line on the result channel that is no result of the running case: only
// the library under test can have written it. Its fault, charged to the
// case as an error, and never re-run into a pass.
CaseResult channel_error(const CaseSpec& spec, const std::string& line, const char* what) {
  return {spec.id, Outcome::error,
          fmt::format("the result channel carried {} while this case ran, so the library under "
                      "test wrote on it; the worker was stopped and the case is not re-run: {}",
                      what, quote_for_message(line, 120))};
}

// The cases of one run_isolated call, from the first worker to the last
// result.
class IsolatedRun {
 public:
  IsolatedRun(const std::vector<CaseSpec>& cases, const RunnerOptions& options,
              std::vector<ChildProcess> waiting)
      : cases_(cases), options_(options), results_(cases.size()), waiting_(std::move(waiting)) {
    for (std::size_t i = 0; i < cases.size(); ++i) pending_.push_back({i, 1});
    jobs_ = std::max(1, options.jobs);
  }

  std::vector<CaseResult> run();

 private:
  void finish(const Pending& job, CaseResult result, const RunContext& where, bool may_rerun);
  void charge_setup_group(const Pending& job, const CaseResult& charged);
  void settle(std::size_t index, CaseResult result);
  std::optional<std::string> skip_reason(const Pending& job) const;
  bool stop_if_turned_away(Active& worker);
  void skip_turned_away();
  void announce(const Pending& job);
  std::vector<Pending> next_batch(std::size_t most);
  bool takes_more(const std::vector<const CaseSpec*>& specs) const;
  bool same_lane(const Pending& first, const Pending& next) const;
  std::unique_ptr<Active> worker_for(const std::vector<Pending>& batch,
                                     const std::vector<const CaseSpec*>& specs);
  void hand_more(Active& worker);
  bool worth_starting() const;
  void start_workers();
  void wait_for_output();
  bool take_results(Active& worker);
  bool step(Active& worker);
  void requeue(const Active& worker, std::size_t from);
  RunContext context_of(const Active& worker) const;
  std::vector<CaseResult> ordered_results();

  const std::vector<CaseSpec>& cases_;
  const RunnerOptions& options_;
  std::vector<std::optional<CaseResult>> results_;
  std::deque<Pending> pending_;
  std::vector<std::unique_ptr<Active>> active_;
  // Workers started ahead of their cases, waiting for a first batch.
  std::vector<ChildProcess> waiting_;
  WorkerFigures figures_;
  std::size_t started_ = 0;
  int jobs_ = 1;
  // Results settled, and how many there were when the queue was last
  // asked about (skip_turned_away): only a result changes the answers.
  std::size_t settled_ = 0;
  std::size_t settled_at_last_scan_ = 0;
};

void IsolatedRun::finish(const Pending& job, CaseResult result, const RunContext& where,
                         bool may_rerun) {
  result.attempts = job.attempt;
  if (job.attempt == 1 && may_rerun && options_.rerun_failures && is_failing(result.outcome) &&
      !stop_requested()) {
    // Re-run once in a fresh process, so that a flaky case (or one spoiled
    // by its batch) is told apart from a real failure: a crash or hang alone
    // and at once, while the machine is in the same state; a failure with
    // the other failures, in a batch (rerun_shares_worker).
    Pending rerun{job.index, 2, std::move(result), where};
    if (rerun_shares_worker(rerun)) {
      pending_.push_back(std::move(rerun));
    } else {
      pending_.push_front(std::move(rerun));
    }
    return;
  }
  if (job.first) result = judge_rerun(*job.first, job.first_context, std::move(result));
  settle(job.index, std::move(result));
}

void IsolatedRun::settle(std::size_t index, CaseResult result) {
  ++settled_;
  if (options_.on_result) options_.on_result(result);
  results_[index] = std::move(result);
}

std::optional<std::string> IsolatedRun::skip_reason(const Pending& job) const {
  if (!options_.skip_reason) return std::nullopt;
  return options_.skip_reason(cases_[job.index]);
}

// A worker whose running case is turned away is stopped: the case is
// settled with the reason, the rest of its batch goes back to the queue.
bool IsolatedRun::stop_if_turned_away(Active& worker) {
  if (worker.next >= worker.batch.size()) return false;
  const Pending& job = worker.batch[worker.next];
  std::optional<std::string> reason = skip_reason(job);
  if (!reason) return false;
  worker.child.kill_group();
  worker.child.wait();
  requeue(worker, worker.next + 1);
  settle(job.index, turned_away(cases_[job.index], job.first, *reason));
  return true;
}

// Asks about the running cases every turn (a worker moves on without a
// result settling when its case waits for a re-run), and about the queue
// when a result settled since it was last asked.
void IsolatedRun::skip_turned_away() {
  if (!options_.skip_reason) return;
  std::erase_if(active_, [this](const std::unique_ptr<Active>& worker) {
    return stop_if_turned_away(*worker);
  });
  if (settled_ == settled_at_last_scan_) return;
  std::deque<Pending> kept;
  for (Pending& job : pending_) {
    if (std::optional<std::string> reason = skip_reason(job)) {
      settle(job.index, turned_away(cases_[job.index], job.first, *reason));
    } else {
      kept.push_back(std::move(job));
    }
  }
  pending_ = std::move(kept);
  settled_at_last_scan_ = settled_;
}

void IsolatedRun::announce(const Pending& job) {
  if (job.attempt == 1 && options_.on_start) {
    options_.on_start(cases_[job.index], ++started_, cases_.size());
  }
}

// A crash's or hang's re-run goes alone; first runs share a worker, and so
// do failures' re-runs, in batches of at most `most` cases, small enough
// that every job gets work, and of one worker key (the next key starts a
// batch of its own). A batch for a worker that takes more is a quarter of
// its share: workers that finish early take the rest, so that one slow
// batch does not hold the run.
std::vector<Pending> IsolatedRun::next_batch(std::size_t most) {
  std::vector<Pending> batch{pending_.front()};
  pending_.pop_front();
  bool rerun = batch.front().attempt != 1;
  if (rerun && !rerun_shares_worker(batch.front())) return batch;
  bool more = !rerun && takes_more({&cases_[batch.front().index]});
  // A re-run's share stays whole: its worker starts fresh, and the re-runs
  // still to come go to it as they come.
  std::size_t shares = static_cast<std::size_t>(jobs_) * (more ? 4 : 1);
  std::size_t fair = (pending_.size() + 1 + shares - 1) / shares;
  std::size_t size = std::clamp<std::size_t>(fair, 1, std::max<std::size_t>(1, most));
  while (batch.size() < size && !pending_.empty() && same_lane(batch.front(), pending_.front())) {
    batch.push_back(pending_.front());
    pending_.pop_front();
  }
  return batch;
}

// Whether the worker of `specs` may take more cases after them: one that
// reads more, of first runs, or of the failures' re-runs that share a worker
// (each lane keeps to its own: a crash's or hang's re-run stays alone).
bool IsolatedRun::takes_more(const std::vector<const CaseSpec*>& specs) const {
  return options_.takes_more && options_.takes_more(specs);
}

bool IsolatedRun::same_lane(const Pending& first, const Pending& next) const {
  if (cases_[first.index].worker != cases_[next.index].worker) return false;
  if (first.attempt == 1) return next.attempt == 1;
  return rerun_shares_worker(first) && next.attempt != 1 && rerun_shares_worker(next);
}

// A waiting worker given `batch` on its channel where it can take it, else
// a fresh one with the batch on its command line.
std::unique_ptr<Active> IsolatedRun::worker_for(const std::vector<Pending>& batch,
                                                const std::vector<const CaseSpec*>& specs) {
  const Pending& front = batch.front();
  bool more = same_lane(front, front) && takes_more(specs);
  // A waiting worker has run nothing yet: as fresh as a new one.
  while (more && !waiting_.empty()) {
    ChildProcess child = std::move(waiting_.back());
    waiting_.pop_back();
    // One that cannot take it (it died starting) is dropped: its batch goes
    // to the next, or to a fresh worker.
    if (child.send_more(more_cases_text(specs))) {
      return std::make_unique<Active>(
          Active{batch, 0, std::move(child), ChildProcess::Clock::now()});
    }
  }
  std::string input = options_.child_input ? options_.child_input(specs) : std::string();
  return std::make_unique<Active>(Active{
      batch, 0,
      ChildProcess(options_.child_command(specs),
                   std::max<std::chrono::milliseconds>(options_.timeout, kWorkerStartupTimeout),
                   input,
                   more ? ChildProcess::Channel::takes_more : ChildProcess::Channel::results_only),
      ChildProcess::Clock::now()});
}

// A batch whose worker would end with it (a crash's re-run, a Python
// library's) costs a start whenever it runs, so it starts now; one that a worker
// taking more could run starts a worker only where that pays
// (worker_growth.hpp), or where one is waiting.
bool IsolatedRun::worth_starting() const {
  const Pending& front = pending_.front();
  if (!same_lane(front, front) || !takes_more({&cases_[front.index]}) || !waiting_.empty()) {
    return true;
  }
  return figures_.worth_another(active_.size(), pending_.size());
}

void IsolatedRun::start_workers() {
  while (static_cast<int>(active_.size()) < jobs_ && !pending_.empty() && worth_starting()) {
    std::vector<Pending> batch = next_batch(options_.batch_size);
    std::vector<const CaseSpec*> specs;
    for (const Pending& job : batch) specs.push_back(&cases_[job.index]);
    announce(batch.front());
    try {
      active_.push_back(worker_for(batch, specs));
    } catch (const Error& error) {
      for (const Pending& job : batch) {
        finish(job, CaseResult{cases_[job.index].id, Outcome::error, error.what()}, {}, true);
      }
    }
  }
}

// A worker that has run its cases and takes more gets the next cases of its
// lane (first runs, or failures' re-runs) and key, up to --batch cases in
// all; else its channel ends, and so does it.
void IsolatedRun::hand_more(Active& worker) {
  std::size_t room = options_.batch_size - std::min(options_.batch_size, worker.batch.size());
  bool fits = room > 0 && !stop_requested() && !pending_.empty() &&
              same_lane(worker.batch.front(), pending_.front());
  if (!fits) {
    worker.child.end_more();
    return;
  }
  std::vector<Pending> batch = next_batch(room);
  std::vector<const CaseSpec*> specs;
  for (const Pending& job : batch) specs.push_back(&cases_[job.index]);
  if (!worker.child.send_more(more_cases_text(specs))) {
    for (auto job = batch.rbegin(); job != batch.rend(); ++job) pending_.push_front(*job);
    worker.child.end_more();
    return;
  }
  announce(batch.front());
  worker.batch.insert(worker.batch.end(), batch.begin(), batch.end());
  worker.case_started = ChildProcess::Clock::now();
  worker.child.restart_deadline(options_.timeout);
}

void IsolatedRun::wait_for_output() {
  std::vector<ChildProcess*> children;
  auto wake = ChildProcess::Clock::now() + kRunnerTurn;
  for (auto& worker : active_) {
    children.push_back(&worker->child);
    wake = std::min(wake, worker->child.deadline());
  }
  read_children(children, wake);
}

RunContext IsolatedRun::context_of(const Active& worker) const {
  if (worker.next == 0) return {};
  return {worker.next, cases_[worker.batch[worker.next - 1].index].id};
}

// Takes the worker's lines: its ready line, then one result per case in
// order, each framed with its nonce. False when a line is none of these:
// the running case is charged with it, and the worker must go.
bool IsolatedRun::take_results(Active& worker) {
  ChildProcess& child = worker.child;
  for (const std::string& line : child.take_result_lines()) {
    // After its last result a worker has nothing left to say.
    if (worker.next >= worker.batch.size()) return true;
    const Pending& job = worker.batch[worker.next];
    const CaseSpec& spec = cases_[job.index];
    std::optional<std::string_view> payload = unframe_line(line, child.nonce());
    std::optional<CaseResult> result;
    if (payload && !std::exchange(worker.ready, true)) {
      figures_.worker_ready(child.elapsed_ms());
      worker.case_started = ChildProcess::Clock::now();
      child.restart_deadline(options_.timeout);
      if (*payload == kWorkerReadyLine) continue;
    }
    // A worker that ends on an Error says so before it exits; its running
    // case is charged when it has exited (step), with its stderr.
    if (payload && error_from_line(*payload)) continue;
    if (std::optional<WorkerCall> call = payload ? call_from_line(*payload) : std::nullopt) {
      worker.call = std::move(*call);
      continue;
    }
    if (payload) result = result_from_line(spec.id, *payload);
    if (!result) {
      CaseResult charged = channel_error(
          spec, line,
          payload ? "a line that is no result of this case" : "a line without its nonce");
      charged.duration_ms = milliseconds_since(worker.case_started);
      RunContext where = context_of(worker);
      ++worker.next;
      finish(job, std::move(charged), where, false);
      return false;
    }
    result->duration_ms = milliseconds_since(worker.case_started);
    figures_.case_finished(result->duration_ms);
    RunContext where = context_of(worker);
    worker.call = {};
    ++worker.next;
    worker.case_started = ChildProcess::Clock::now();
    child.restart_deadline(options_.timeout);
    if (worker.next < worker.batch.size()) announce(worker.batch[worker.next]);
    finish(job, std::move(*result), where, true);
  }
  return true;
}

// The cases of `worker` from `from` on go on in a fresh worker, at the
// front of the queue.
void IsolatedRun::requeue(const Active& worker, std::size_t from) {
  for (std::size_t i = worker.batch.size(); i > from; --i) pending_.push_front(worker.batch[i - 1]);
}

// Advances one worker; false once it has ended and its cases are accounted
// for (reported, charged, or queued again).
bool IsolatedRun::step(Active& worker) {
  ChildProcess& child = worker.child;
  if (!take_results(worker)) {
    child.kill_group();
    child.wait();
    requeue(worker, worker.next);
    return false;
  }
  bool done = child.output_closed() && child.reap();
  if (!done && child.past_deadline()) {
    child.kill_group();
    child.wait();
    done = true;
  }
  if (!done && worker.next >= worker.batch.size() && child.takes_more()) hand_more(worker);
  if (!done && worker.next >= worker.batch.size() && child.reap()) done = true;
  if (!done) return true;
  if (worker.next < worker.batch.size()) {
    // The running case is charged; the rest of the batch goes on.
    Pending job = worker.batch[worker.next];
    CaseResult charged = charge_running_case(cases_[job.index], child, options_.timeout,
                                             milliseconds_since(worker.case_started), worker.call);
    requeue(worker, worker.next + 1);
    if (worker.call.setup) charge_setup_group(job, charged);
    finish(job, std::move(charged), context_of(worker), true);
  }
  return false;
}

// A crash or hang while the worker made what a setup group shares: every
// case of the group still waiting rests on it, and is charged with it
// without a run of its own (each would make it again, and end the same).
void IsolatedRun::charge_setup_group(const Pending& job, const CaseResult& charged) {
  const std::string& group = cases_[job.index].setup_group;
  if (group.empty()) return;
  std::deque<Pending> kept;
  for (Pending& waiting : pending_) {
    if (cases_[waiting.index].setup_group != group || waiting.first) {
      kept.push_back(std::move(waiting));
      continue;
    }
    CaseResult shared = charged;
    shared.id = cases_[waiting.index].id;
    shared.message = fmt::format("{} (charged with case {}, whose setup it shares)",
                                 charged.message, charged.id);
    settle(waiting.index, std::move(shared));
  }
  pending_ = std::move(kept);
}

// Results in the order of the cases; what did not finish (a stopped run) is
// recorded as not_run, so no report is lost.
std::vector<CaseResult> IsolatedRun::ordered_results() {
  std::vector<CaseResult> ordered;
  for (std::size_t i = 0; i < cases_.size(); ++i) {
    if (!results_[i]) {
      CaseResult not_run{cases_[i].id, Outcome::not_run,
                         "the run was interrupted before this case finished"};
      not_run.attempts = 0;
      if (options_.on_result) options_.on_result(not_run);
      results_[i] = std::move(not_run);
    }
    ordered.push_back(std::move(*results_[i]));
  }
  return ordered;
}

std::vector<CaseResult> IsolatedRun::run() {
  while ((!pending_.empty() || !active_.empty()) && !stop_requested()) {
    skip_turned_away();
    start_workers();
    wait_for_output();
    for (std::size_t a = 0; a < active_.size();) {
      if (step(*active_[a])) {
        ++a;
      } else {
        active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(a));
      }
    }
    if (options_.on_tick) options_.on_tick();
  }
  for (auto& running : active_) {
    running->child.kill_group();
    running->child.wait();
  }
  active_.clear();
  return ordered_results();
}

}  // namespace

std::vector<CaseResult> run_isolated(const std::vector<CaseSpec>& cases,
                                     const RunnerOptions& options,
                                     std::vector<ChildProcess> waiting) {
  StopSignals stop_signals;
  return IsolatedRun(cases, options, std::move(waiting)).run();
}

}  // namespace dlpack_usm::suite
