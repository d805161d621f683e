// Turns `check` options into the cases to run and runs them with the
// expectations applied: the part of `check` that decides, kept apart from
// the command line and from the reporters.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plugin/plugin_spec.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/selection.hpp"
#include "suite/runner/runner.hpp"

namespace dlpack_usm::suite {

struct CheckOptions {
  std::filesystem::path suite_dir;
  Selection selection;
  std::vector<std::string> required_devices;  // --require-device
  // --require: features whose clean declines fail (CaseSpec::features).
  std::vector<std::string> required_features;
  std::vector<std::filesystem::path> baselines;
  std::vector<std::filesystem::path> flakes;
  bool allow_empty = false;
  // --strict: a case that warns fails the gate (and a baseline may expect it).
  bool strict = false;
  std::chrono::milliseconds timeout{60000};
  int jobs = 1;
  // The most cases one worker process runs (1: a process per case).
  std::size_t batch_size = 64;
  std::vector<std::string> command_line;
  // --label: names the machine (or configuration) of this run, so that
  // `report merge` keeps the runs of different machines apart.
  std::string label;
  // Libraries under test: when given, check runs their cases only.
  std::vector<plugin::PluginSpec> plugins;
  nlohmann::json plugin_descriptions = nlohmann::json::array();
};

// The shipped vectors alone (check --vectors-only).
CaseSources vector_case_sources(const std::filesystem::path& suite_dir);

// Every case source `check` knows: the shipped vectors and the live cases.
CaseSources default_case_sources(const std::filesystem::path& suite_dir);

// The sources a run uses: the default ones, or, when libraries are under
// test, their producer, exchange-API and consumer cases alone.
CaseSources case_sources(const std::filesystem::path& suite_dir,
                         const std::vector<plugin::PluginSpec>& plugins);

// Every case of the sources, and the part of them the selection runs: what
// `check` runs and what `check --list` prints come from here alone.
struct CollectedCases {
  SelectedCases selected;
  std::size_t suite_cases = 0;  // before the filters and the shard
  std::string suite_digest;     // SHA-256 of every case id, in order
};
CollectedCases collect_cases(CaseSources& sources, const Selection& selection);

// Throws Error(environment) when the runtime has problems (no loader, no
// platform, a platform that fails, a malformed ONEAPI_DEVICE_SELECTOR) or no
// root device at all: the live cases could not run, and a run of the
// vectors alone must not pass as if they had.
void require_live_devices(const runtime::Inventory& inventory);

// Throws Error(environment) naming a required device that is absent.
// "usm" requires any device with USM; otherwise a name or glob of list-devices.
void require_devices(const runtime::Inventory& inventory, const std::vector<std::string>& required);

// A shell command line that re-runs one case (with the --require options
// among `required_features` that the case names).
std::string repro_command(const CaseSpec& spec, const std::filesystem::path& suite_dir,
                          bool default_suite, const std::vector<plugin::PluginSpec>& plugins = {},
                          const std::vector<std::string>& required_features = {});

// A clean decline (not_supported) of a case that names a required feature
// becomes a finding of the case's decline_rule (an error: the user asked for
// the feature); other results are unchanged.
CaseResult apply_required_features(const CaseSpec& spec, CaseResult result,
                                   const std::vector<std::string>& required_features);

struct CheckCallbacks {
  std::function<void(const CaseSpec&, std::size_t started, std::size_t total)> on_start;
  std::function<void(const RecordedCase&)> on_case;  // final result, verdict applied
};

// Loads expectations (Error(usage) on a bad file), selects (Error(usage) when
// nothing is left and allow_empty is false), runs and records.
CheckRun run_check(
    const CheckOptions& options, CaseSources& sources,
    std::function<std::vector<std::string>(const std::vector<const CaseSpec*>&)> child_command,
    const CheckCallbacks& callbacks);

}  // namespace dlpack_usm::suite
