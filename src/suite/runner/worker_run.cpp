#include "suite/runner/worker_run.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "suite/runner/worker_containment.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {
namespace {

// The cases a worker can run, listed a kind at a time when the first case of
// that kind comes: a worker of vectors never starts the runtime.
class WorkerCases {
 public:
  WorkerCases(CaseSources& sources, const std::function<void()>& start_runtime)
      : sources_(sources), start_runtime_(start_runtime), runtime_started_(!start_runtime) {}

  void know_kind(std::string_view kind) {
    if (!kinds_.insert(std::string(kind)).second) return;
    for (auto& source : sources_) {
      if (source->kind() != kind) continue;
      if (source->needs_runtime() && !runtime_started_) {
        start_runtime_();
        runtime_started_ = true;
      }
      for (CaseSpec& spec : source->cases()) {
        std::string id = spec.id;
        known_.emplace(std::move(id), std::pair{source.get(), std::move(spec)});
      }
    }
  }

  void know_every_kind() {
    for (auto& source : sources_) know_kind(source->kind());
  }

  // The case `id`, run; a harness failure becomes its error.
  CaseResult run(const std::string& id) {
    CaseResult result;
    result.id = id;
    try {
      auto found = known_.find(id);
      if (found == known_.end()) {
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
    return result;
  }

 private:
  CaseSources& sources_;
  const std::function<void()>& start_runtime_;
  bool runtime_started_;
  std::set<std::string, std::less<>> kinds_;
  std::map<std::string, std::pair<CaseSource*, CaseSpec>> known_;
};

// Runs `id` and reports it; false when the runner is gone.
bool run_and_report(ResultChannel& channel, WorkerCases& cases, const std::string& id) {
  CaseResult result = cases.run(id);
  std::fflush(stdout);
  if (worker_guard_killed()) die_for_killed_guard();
  return channel.send(json_line(result_to_json(result)));
}

}  // namespace

int run_cases_in_child(ResultChannel& channel, CaseSources& sources,
                       const std::vector<std::string>& ids, const WorkerStart& start) {
  WorkerCases cases(sources, start.runtime);
  if (start.ready_for_any_case || start.sources_of_ids.empty()) cases.know_every_kind();
  for (const std::string& kind : start.sources_of_ids) cases.know_kind(kind);
  if (channel.connected() && !channel.send(kWorkerReadyLine)) return 1;
  for (const std::string& id : ids) {
    // The parent is gone when the line cannot go: nothing left to report to.
    if (!run_and_report(channel, cases, id)) return 1;
  }
  if (!start.more_cases) return 0;
  while (std::optional<std::string> line = channel.receive_line()) {
    std::optional<CaseToRun> next = case_from_line(*line);
    // Only the runner writes there: a line that is no case is its bug.
    if (!next) throw Error(ExitCode::internal, "the runner sent a line that is no case");
    cases.know_kind(next->source);
    if (!run_and_report(channel, cases, next->id)) return 1;
  }
  return 0;
}

}  // namespace dlpack_usm::suite
