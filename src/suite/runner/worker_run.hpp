// The worker's side of the runner (runner.hpp): the cases it is given, run
// in order and reported on its result channel, one JSON line each
// (worker_protocol.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "suite/model/case.hpp"
#include "suite/runner/result_channel.hpp"

namespace dlpack_usm::suite {

// How a worker starts its cases.
struct WorkerStart {
  // Called before the first case of a source that needs the runtime.
  std::function<void()> runtime;
  // Every case listed (the runtime started where a source needs it) before
  // the worker says ready: a worker started ahead of its cases.
  bool ready_for_any_case = false;
  // After `ids`: further cases on the channel, until the runner closes it.
  bool more_cases = false;
  // The kinds of the sources of `ids` (CaseSpec::source); none given (a
  // worker run by hand): every source lists its cases.
  std::vector<std::string> sources_of_ids = {};
};

// The worker side: runs the cases `ids` of `sources` in order, sending one
// JSON line per case on `channel` (taken before any library under test was
// loaded), and returns the process exit code. The sources of a kind list
// their cases when its first case comes, `start.runtime` called first when
// one of them needs the runtime.
int run_cases_in_child(ResultChannel& channel, CaseSources& sources,
                       const std::vector<std::string>& ids, const WorkerStart& start = {});

}  // namespace dlpack_usm::suite
