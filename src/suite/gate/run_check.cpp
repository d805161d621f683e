#include "suite/gate/run_check.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "build_info.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "common/sha256.hpp"
#include "common/suggest.hpp"
#include "rules/rule.hpp"
#include "runtime/selection.hpp"
#include "suite/gate/case_recorder.hpp"
#include "suite/gate/run_limits.hpp"
#include "suite/runner/stop_signals.hpp"

namespace dlpack_usm::suite {
namespace {

std::string now_rfc3339() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json options_to_json(const CheckOptions& options) {
  return {{"suite", options.suite_dir.string()},
          {"filter", options.selection.id_globs},
          {"rule", options.selection.rule_globs},
          {"device", options.selection.devices},
          {"cell", options.selection.cells},
          {"shard", options.selection.shard
                        ? nlohmann::json(fmt::format("{}/{}", options.selection.shard->index,
                                                     options.selection.shard->count))
                        : nlohmann::json(nullptr)},
          {"require_device", options.required_devices},
          {"timeout_ms", options.timeout.count()},
          {"jobs", options.jobs},
          {"batch", options.batch_size},
          {"max_failures", options.max_failures},
          {"max_consecutive_hangs", options.max_consecutive_hangs},
          {"allow_empty", options.allow_empty},
          {"strict", options.strict},
          {"label", options.label}};
}

// What `report merge` compares to tell shards of one run from runs of
// different suites, machines or libraries: every case id before the filters
// and the shard, in order.
std::string suite_digest(const std::vector<CaseSpec>& all) {
  std::string ids;
  for (const CaseSpec& spec : all) ids.append(spec.id).append("\n");
  return sha256_hex(ids);
}

}  // namespace

CollectedCases collect_cases(CaseSources& sources, const Selection& selection,
                             bool values_from_cases) {
  std::vector<CaseSpec> all;
  for (auto& source : sources) {
    for (CaseSpec& spec : source->cases()) all.push_back(std::move(spec));
  }
  if (values_from_cases) require_known_case_values(selection, all);
  std::sort(all.begin(), all.end(),
            [](const CaseSpec& a, const CaseSpec& b) { return a.id < b.id; });
  CollectedCases collected;
  for (const CaseSpec& spec : all) collected.suite_ids.insert(spec.id);
  collected.suite_cases = all.size();
  collected.suite_digest = suite_digest(all);
  collected.selected = partition_cases(std::move(all), selection);
  return collected;
}

void require_live_devices(const runtime::Inventory& inventory) {
  std::size_t roots = 0;
  for (const runtime::PlatformInfo& platform : inventory.platforms) {
    roots += platform.devices.size();
  }
  if (inventory.problems.empty() && roots > 0) return;
  std::string why = fmt::format("{}", fmt::join(inventory.problems, "; "));
  if (inventory.problems.empty()) {
    why = inventory.selector
              ? fmt::format("ONEAPI_DEVICE_SELECTOR={} selects no device", *inventory.selector)
              : "the runtime lists no device";
  }
  fail_environment(fmt::format("the live cases cannot run: {}", why),
                   "fix the OpenCL set-up ('dlpack-usm list-devices' shows it), or pass "
                   "--vectors-only to run the conformance vectors alone");
}

void require_devices(const runtime::Inventory& inventory,
                     const std::vector<std::string>& required) {
  for (const std::string& wanted : required) {
    bool present = false;
    for (const runtime::PlatformInfo& platform : inventory.platforms) {
      for (const runtime::DeviceInfo& root : platform.devices) {
        present = present || (wanted == "usm" ? root.usm.has_value()
                                              : device_matches(root.selector_name, wanted));
      }
    }
    if (!present) {
      fail_environment(fmt::format("--require-device {}: no such device on this machine", wanted),
                       wanted == "usm" ? "install a runtime with cl_intel_unified_shared_memory "
                                         "(scripts/setup.sh sets up Intel's CPU runtime)"
                                       : "run 'dlpack-usm list-devices' to see the device names");
    }
  }
}

namespace {

// Error(usage) for a value of `option` none of `known` matches.
void require_known_values(const std::vector<std::string>& wanted_values,
                          const std::vector<std::string>& known, const char* option,
                          const char* what) {
  for (const std::string& wanted : wanted_values) {
    if (std::any_of(known.begin(), known.end(),
                    [&wanted](const std::string& name) { return device_matches(name, wanted); })) {
      continue;
    }
    fail_usage(fmt::format("{} {}: no {} of this name in this run{}", option,
                           quote_for_message(wanted), what, did_you_mean(wanted, known)),
               known.empty()
                   ? fmt::format("no {} was found: 'dlpack-usm list-devices' says why", what)
                   : fmt::format("the {}s here: {}", what, fmt::join(known, ", ")));
  }
}

}  // namespace

void require_known_filters(const Selection& selection, const runtime::Inventory* inventory) {
  std::vector<std::string> rule_ids;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) rule_ids.emplace_back(rule.id);
  for (const std::string& wanted : selection.rule_globs) {
    if (std::any_of(rule_ids.begin(), rule_ids.end(),
                    [&wanted](const std::string& id) { return glob_matches(wanted, id); })) {
      continue;
    }
    fail_usage(fmt::format("--rule {}: no rule has this id{}", quote_for_message(wanted),
                           did_you_mean(wanted, rule_ids)),
               "'dlpack-usm rules' lists the rule ids; a glob such as 'DLP-STRIDES-*' selects "
               "several");
  }
  if (inventory == nullptr) return;
  require_known_values(selection.devices, inventory->device_names(), "--device", "device");
}

void require_known_case_values(const Selection& selection, const std::vector<CaseSpec>& cases) {
  std::set<std::string> devices, cells;
  for (const CaseSpec& spec : cases) {
    if (!spec.device.empty()) devices.insert(spec.device);
    if (!spec.cell.empty()) cells.insert(spec.cell);
  }
  require_known_values(selection.devices, {devices.begin(), devices.end()}, "--device", "device");
  require_known_values(selection.cells, {cells.begin(), cells.end()}, "--cell", "cell");
}

namespace {

// The run's header: who ran what, where, with which options.
CheckRun start_run(const CheckOptions& options) {
  CheckRun run;
  run.tool_version = kToolVersion;
  run.command_line = options.command_line;
  run.inventory = runtime::active_runtime().inventory();
  run.options = options_to_json(options);
  run.plugins = options.plugin_descriptions;
  run.strict = options.strict;
  return run;
}

Expectations read_expectations(const CheckOptions& options) {
  Expectations expectations;
  for (const auto& path : options.baselines) {
    expectations.files.push_back(read_expectation_file(path, "baseline"));
  }
  for (const auto& path : options.flakes) {
    expectations.files.push_back(read_expectation_file(path, "flakes"));
  }
  return expectations;
}

// The cases the selection runs (Error(usage) when none is left and the
// options do not allow an empty run); the run's options record the suite.
CollectedCases select_cases(const CheckOptions& options, CaseSources& sources, CheckRun& run) {
  CollectedCases collected = collect_cases(sources, options.selection, options.values_from_cases);
  // The report's environment shows what the runtime answered when asked who
  // owns an allocation (asked once per process: the case sources that
  // depend on the answer asked already).
  if (std::any_of(sources.begin(), sources.end(),
                  [](const auto& source) { return source->needs_runtime(); })) {
    run.owner_answers = runtime::owner_answer_checks(runtime::active_runtime());
  }
  run.options["suite_cases"] = collected.suite_cases;
  run.options["suite_digest"] = collected.suite_digest;
  if (collected.selected.to_run.empty() && !options.allow_empty) {
    fail_usage("the filters selected no case to run",
               "check --filter, --rule, --device and --shard (see 'dlpack-usm check --list'), or "
               "pass --allow-empty where an empty run is fine");
  }
  return collected;
}

RunnerOptions runner_options(const CheckOptions& options, WorkerLaunch& launch) {
  RunnerOptions runner;
  runner.child_command = std::move(launch.command);
  runner.child_input = std::move(launch.input);
  runner.takes_more = std::move(launch.takes_more);
  runner.timeout = options.timeout;
  runner.jobs = options.jobs;
  runner.batch_size = options.batch_size;
  return runner;
}

}  // namespace

CheckRun run_check(const CheckOptions& options, CaseSources& sources, WorkerLaunch launch,
                   const CheckCallbacks& callbacks) {
  CheckRun run = start_run(options);
  Expectations expectations = read_expectations(options);
  run.expectation_files = expectations.files;
  CollectedCases collected = select_cases(options, sources, run);
  if (callbacks.on_warning) {
    for (const std::string& warning :
         unmatched_entry_warnings(expectations.files, collected.suite_ids)) {
      callbacks.on_warning(warning);
    }
  }
  SelectedCases& partition = collected.selected;
  const std::vector<CaseSpec>& selected = partition.to_run;
  std::map<std::string, const CaseSpec*> by_id;
  for (const CaseSpec& spec : selected) by_id[spec.id] = &spec;
  CaseRecorder recorder(options, expectations);

  run.started_at = now_rfc3339();
  auto started = std::chrono::steady_clock::now();
  RunLimits limits(options);
  RunStatus status;
  status.total = selected.size();
  RunnerOptions runner = runner_options(options, launch);
  runner.on_start = callbacks.on_start;
  runner.on_result = [&](const CaseResult& result) {
    RecordedCase recorded = recorder.record(*by_id.at(result.id), result);
    status.count(recorded.result);
    for (const std::string& reason : limits.count(recorded)) {
      if (callbacks.on_limit) callbacks.on_limit(reason);
    }
    if (callbacks.on_case) callbacks.on_case(recorded);
  };
  runner.skip_reason = [&limits](const CaseSpec& spec) { return limits.skip_reason(spec); };
  runner.on_tick = [&] {
    status.elapsed = std::chrono::steady_clock::now() - started;
    if (callbacks.on_tick) callbacks.on_tick(status);
  };
  std::vector<CaseResult> results = run_isolated(selected, runner, std::move(launch.waiting));
  run.stop_reasons = limits.reasons();
  // A stop signal during the run interrupts it, even one that came after
  // its last case: the command ends on the signal, never on a verdict.
  run.interrupted = stop_requested();
  run.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  run.finished_at = now_rfc3339();

  for (std::size_t i = 0; i < results.size(); ++i) {
    run.cases.push_back(recorder.record(selected[i], std::move(results[i])));
    run.interrupted = run.interrupted || run.cases.back().result.outcome == Outcome::not_run;
  }
  for (CaseSpec& spec : partition.filtered_out) {
    run.cases.push_back(recorder.record_left_out(std::move(spec)));
  }
  std::sort(run.cases.begin(), run.cases.end(),
            [](const RecordedCase& a, const RecordedCase& b) { return a.result.id < b.result.id; });
  return run;
}

}  // namespace dlpack_usm::suite
