// Runs cases isolated, as dEQP's runners do: workers (the tool re-executed,
// never a bare fork once OpenCL threads exist) each run a batch of cases and
// report each on a result channel of their own (result_channel.hpp), so the
// runtime starts once per worker; a batch holds the cases of one worker key
// (CaseSpec::worker) only. A case that crashes, aborts, exits or hangs is
// charged as crash or timeout to that case alone (naming the call it was
// in, where its worker announced one: worker_calls.hpp), and the rest of
// its batch goes on in a fresh worker; a failing case is re-run alone in a
// fresh process before it is called a failure, a flake or a state bug.
// A worker of the tool's own cases takes more on its channel once it has
// run its batch, up to --batch cases in all: a run starts at most --jobs
// workers, not one per batch (and only as many as pay for their start:
// worker_growth.hpp), and hands them work a part at a time.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "suite/model/case.hpp"
#include "suite/runner/child_process.hpp"
#include "suite/runner/result_channel.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {

// The most cases one worker process runs, unless check --batch says.
inline constexpr std::size_t kDefaultBatchSize = 500;
// How long a worker may take to get ready (at least the case timeout).
inline constexpr std::chrono::seconds kWorkerStartupTimeout{60};
// The longest the run's poll loop waits for its workers before it turns
// again (and calls RunnerOptions::on_tick).
inline constexpr std::chrono::milliseconds kRunnerTurn{200};

// How a batch's worker starts: its argv, and what it reads on stdin (a
// Python worker: the batch's case specs; none where unset or empty).
using BatchFunction = std::function<std::vector<std::string>(const std::vector<const CaseSpec*>&)>;
struct WorkerLaunch {
  BatchFunction command;
  std::function<std::string(const std::vector<const CaseSpec*>& batch)> input;
  std::function<bool(const std::vector<const CaseSpec*>& batch)> takes_more;
  std::vector<ChildProcess> waiting;  // see run_isolated
};

struct RunnerOptions {
  // The argv of a worker that runs `batch` in order (the child calls
  // run_cases_in_child).
  std::function<std::vector<std::string>(const std::vector<const CaseSpec*>& batch)> child_command;
  // What the worker of `batch` reads on its stdin (a Python worker: the
  // batch's case specs); none where empty or unset.
  std::function<std::string(const std::vector<const CaseSpec*>& batch)> child_input;
  // Whether the worker child_command starts for `batch` takes more cases on
  // its channel once it has run these (worker_protocol.hpp: the tool's own
  // workers do, a Python worker does not). Such a worker runs up to
  // batch_size cases in all, handed to it a part at a time.
  std::function<bool(const std::vector<const CaseSpec*>& batch)> takes_more;
  // The most cases one worker runs.
  std::size_t batch_size = kDefaultBatchSize;
  std::chrono::milliseconds timeout{60000};
  int jobs = 1;
  bool rerun_failures = true;
  // Called once per case, in completion order, with its final result.
  std::function<void(const CaseResult&)> on_result;
  // Called when a case starts (for a progress line).
  std::function<void(const CaseSpec&, std::size_t started, std::size_t total)> on_start;
  // Called every turn of the poll loop, at least every kRunnerTurn, even
  // while every worker hangs: what a status line in a log hangs on.
  std::function<void()> on_tick;
  // Asked about every case not finished yet, after a case finished: a
  // reason it is not to run any more (check --max-failures, a library that
  // hung on case after case), or nullopt. Such a case is recorded not_run
  // with the reason; a worker running it is stopped first; one waiting for
  // its re-run keeps its first attempt's result, the reason noted.
  std::function<std::optional<std::string>(const CaseSpec&)> skip_reason;
};

// Results in the order of `cases`. A stop signal (stop_signals.hpp) stops
// the run: running children are killed, and they and the cases not started
// become not_run. Cases skip_reason turns away are not_run too, with their
// reason.
// `waiting`: workers that take more cases, started ahead of them (so that
// their runtime starts while the caller plans), each waiting for its first
// batch on its channel; those left over at the end are stopped.
std::vector<CaseResult> run_isolated(const std::vector<CaseSpec>& cases,
                                     const RunnerOptions& options,
                                     std::vector<ChildProcess> waiting = {});

}  // namespace dlpack_usm::suite
