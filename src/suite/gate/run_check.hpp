// run_check: turns `check` options into the cases to run and runs them with
// the expectations applied: the part of `check` that decides, kept apart from
// the command line and from the reporters. (The finished run it returns is
// the model's CheckRun.)
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "suite/gate/check_options.hpp"
#include "suite/gate/run_status.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/selection.hpp"
#include "suite/runner/runner.hpp"

namespace dlpack_usm::suite {

// Every case of the sources, and the part of them the selection runs: what
// `check` runs and what `check --list` prints come from here alone.
struct CollectedCases {
  SelectedCases selected;
  std::size_t suite_cases = 0;      // before the filters and the shard
  std::set<std::string> suite_ids;  // every case id, before the filters and the shard
  std::string suite_digest;         // SHA-256 of every case id, in order
};
// `values_from_cases`: --device and --cell name devices and cells of the
// cases (require_known_case_values), not of the runtime's inventory.
CollectedCases collect_cases(CaseSources& sources, const Selection& selection,
                             bool values_from_cases = false);

// Throws Error(environment) when the runtime has problems (no loader, no
// platform, a platform that fails, a malformed ONEAPI_DEVICE_SELECTOR) or no
// root device at all: the live cases could not run, and a run of the
// vectors alone must not pass as if they had.
void require_live_devices(const runtime::Inventory& inventory);

// Throws Error(environment) naming a required device that is absent.
// "usm" requires any device with USM; otherwise a name or glob of list-devices.
void require_devices(const runtime::Inventory& inventory, const std::vector<std::string>& required);

// Throws Error(usage) for a --rule that names no rule of the catalog and,
// given the inventory, a --device that names no device of it: a typo would
// select nothing, and "the filters selected no case" would not say which
// value was wrong. The error names the value and offers the closest names.
void require_known_filters(const Selection& selection, const runtime::Inventory* inventory);

// The same for --device and --cell against the devices and cells of
// `cases` (a run of Python libraries: "cpu" is plain host memory there).
void require_known_case_values(const Selection& selection, const std::vector<CaseSpec>& cases);

struct CheckCallbacks {
  std::function<void(const CaseSpec&, std::size_t started, std::size_t total)> on_start;
  std::function<void(const RecordedCase&)> on_case;  // final result, verdict applied
  // Said before the first case runs: an entry of --baseline or --flakes
  // that names no case of the suite.
  std::function<void(const std::string&)> on_warning;
  // Where the run stands, every turn of the runner (RunnerOptions::on_tick).
  std::function<void(const RunStatus&)> on_tick;
  // A limit was reached (run_limits.hpp): the reason the cases it turns
  // away are not run.
  std::function<void(const std::string& reason)> on_limit;
};

// Loads expectations (Error(usage) on a bad file), selects (Error(usage) when
// nothing is left and allow_empty is false), runs and records. The limits
// of the options (--max-failures, --max-consecutive-hangs) turn cases away:
// not_run, with the reasons in the run's stop_reasons.
// `launch` starts the worker of a batch (the tool's own, or a Python one).
CheckRun run_check(const CheckOptions& options, CaseSources& sources, WorkerLaunch launch,
                   const CheckCallbacks& callbacks);

}  // namespace dlpack_usm::suite
