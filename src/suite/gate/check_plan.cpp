#include "suite/gate/check_plan.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "build_info.hpp"
#include "common/error.hpp"
#include "common/sha256.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/consumer/consumer_cases.hpp"
#include "suite/cases/live/live_cases.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/producer/exchange_api_cases.hpp"
#include "suite/cases/producer/producer_cases.hpp"
#include "suite/cases/vectors/vector_cases.hpp"
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

// Single-quoted for POSIX shells.
std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

nlohmann::json options_to_json(const CheckOptions& options) {
  return {{"suite", options.suite_dir.string()},
          {"filter", options.selection.id_globs},
          {"rule", options.selection.rule_globs},
          {"device", options.selection.devices},
          {"shard", options.selection.shard
                        ? nlohmann::json(fmt::format("{}/{}", options.selection.shard->index,
                                                     options.selection.shard->count))
                        : nlohmann::json(nullptr)},
          {"require_device", options.required_devices},
          {"timeout_ms", options.timeout.count()},
          {"jobs", options.jobs},
          {"batch", options.batch_size},
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

CaseSources vector_case_sources(const std::filesystem::path& suite_dir) {
  CaseSources sources;
  sources.push_back(std::make_unique<VectorCaseSource>(suite_dir));
  return sources;
}

CaseSources default_case_sources(const std::filesystem::path& suite_dir) {
  auto runtime = []() -> runtime::Runtime& { return runtime::active_runtime(); };
  CaseSources sources = vector_case_sources(suite_dir);
  sources.push_back(std::make_unique<OwnerAnswerCaseSource>(runtime));
  sources.push_back(std::make_unique<LiveCaseSource>(runtime));
  return sources;
}

CaseSources case_sources(const std::filesystem::path& suite_dir,
                         const std::vector<plugin::PluginSpec>& plugins) {
  if (plugins.empty()) return default_case_sources(suite_dir);
  auto runtime = []() -> runtime::Runtime& { return runtime::active_runtime(); };
  // The runtime's owner answer is named once however many libraries run.
  CaseSources sources;
  sources.push_back(std::make_unique<OwnerAnswerCaseSource>(runtime));
  for (const plugin::PluginSpec& spec : plugins) {
    if (spec.role == plugin::Role::consumer) {
      sources.push_back(std::make_unique<ConsumerCaseSource>(runtime, spec));
    } else if (spec.exchange_api()) {
      sources.push_back(std::make_unique<ExchangeApiCaseSource>(runtime, spec));
    } else {
      sources.push_back(std::make_unique<ProducerCaseSource>(runtime, spec));
    }
  }
  return sources;
}

CollectedCases collect_cases(CaseSources& sources, const Selection& selection) {
  std::vector<CaseSpec> all;
  for (auto& source : sources) {
    for (CaseSpec& spec : source->cases()) all.push_back(std::move(spec));
  }
  std::sort(all.begin(), all.end(),
            [](const CaseSpec& a, const CaseSpec& b) { return a.id < b.id; });
  CollectedCases collected;
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

// The first of `required` that the case names, or nullptr.
const std::string* required_feature_of(const CaseSpec& spec,
                                       const std::vector<std::string>& required) {
  for (const std::string& feature : required) {
    if (std::find(spec.features.begin(), spec.features.end(), feature) != spec.features.end()) {
      return &feature;
    }
  }
  return nullptr;
}

CaseResult apply_required_features(const CaseSpec& spec, CaseResult result,
                                   const std::vector<std::string>& required_features) {
  const std::string* feature = required_feature_of(spec, required_features);
  if (result.outcome != Outcome::not_supported || spec.decline_rule.empty() || feature == nullptr) {
    return result;
  }
  result.message = fmt::format("rule {}: --require {}, but the library declined: {}",
                               spec.decline_rule, *feature, result.message);
  result.add_finding({spec.decline_rule, catalog_severity(spec.decline_rule), result.message});
  result.outcome = outcome_of(result.findings);
  return result;
}

std::string repro_command(const CaseSpec& spec, const std::filesystem::path& suite_dir,
                          bool default_suite, const std::vector<plugin::PluginSpec>& plugins,
                          const std::vector<std::string>& required_features) {
  std::string command = "dlpack-usm check";
  for (const std::string& argument : plugin::plugin_arguments(plugins)) {
    command += " " + (argument.starts_with("--") ? argument : shell_quote(argument));
  }
  for (const std::string& feature : required_features) {
    if (std::find(spec.features.begin(), spec.features.end(), feature) == spec.features.end()) {
      continue;
    }
    command.append(" --require ").append(shell_quote(feature));
  }
  command += " --filter " + shell_quote(spec.id);
  // Plugin runs use no conformance suite.
  if (!default_suite && plugins.empty()) command += " --suite " + shell_quote(suite_dir.string());
  // The runtime decides device names and ids: a repro runs on the same one.
  command += " --runtime " + runtime::active_runtime_name();
  return command;
}

CheckRun run_check(
    const CheckOptions& options, CaseSources& sources,
    std::function<std::vector<std::string>(const std::vector<const CaseSpec*>&)> child_command,
    const CheckCallbacks& callbacks) {
  CheckRun run;
  run.tool_version = kToolVersion;
  run.command_line = options.command_line;
  run.inventory = runtime::active_runtime().inventory();
  run.options = options_to_json(options);
  run.plugins = options.plugin_descriptions;
  run.strict = options.strict;

  Expectations expectations;
  for (const auto& path : options.baselines) {
    expectations.files.push_back(read_expectation_file(path, "baseline"));
  }
  for (const auto& path : options.flakes) {
    expectations.files.push_back(read_expectation_file(path, "flakes"));
  }
  run.expectation_files = expectations.files;

  CollectedCases collected = collect_cases(sources, options.selection);
  // The report's environment shows what the runtime answered when asked who
  // owns an allocation (asked once per process: the case sources that
  // depend on the answer asked already).
  if (std::any_of(sources.begin(), sources.end(),
                  [](const auto& source) { return source->needs_runtime(); })) {
    run.owner_answers = runtime::owner_answer_checks(runtime::active_runtime());
  }
  run.options["suite_cases"] = collected.suite_cases;
  run.options["suite_digest"] = collected.suite_digest;
  SelectedCases& partition = collected.selected;
  std::vector<CaseSpec>& selected = partition.to_run;
  if (selected.empty() && !options.allow_empty) {
    fail_usage("the filters selected no case to run",
               "check --filter, --rule, --device and --shard (see 'dlpack-usm check --list'), or "
               "pass --allow-empty where an empty run is fine");
  }
  std::map<std::string, const CaseSpec*> by_id;
  for (const CaseSpec& spec : selected) by_id[spec.id] = &spec;
  bool default_suite = options.suite_dir == default_conformance_dir();

  run.started_at = now_rfc3339();
  auto started = std::chrono::steady_clock::now();
  RunnerOptions runner;
  runner.child_command = std::move(child_command);
  runner.timeout = options.timeout;
  runner.jobs = options.jobs;
  runner.batch_size = options.batch_size;
  runner.on_start = callbacks.on_start;
  runner.on_result = [&](const CaseResult& result) {
    if (!callbacks.on_case) return;
    const CaseSpec& spec = *by_id.at(result.id);
    CaseResult decided = apply_required_features(spec, result, options.required_features);
    decided.verdict = decide_verdict(decided, expectations, options.strict);
    callbacks.on_case({spec, decided,
                       repro_command(spec, options.suite_dir, default_suite, options.plugins,
                                     options.required_features)});
  };
  std::vector<CaseResult> results = run_isolated(selected, runner);
  // A stop signal during the run interrupts it, even one that came after
  // its last case: the command ends on the signal, never on a verdict.
  run.interrupted = stop_requested();
  run.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  run.finished_at = now_rfc3339();

  for (std::size_t i = 0; i < results.size(); ++i) {
    CaseResult result =
        apply_required_features(selected[i], std::move(results[i]), options.required_features);
    result.verdict = decide_verdict(result, expectations, options.strict);
    run.interrupted = run.interrupted || result.outcome == Outcome::not_run;
    run.cases.push_back({selected[i], std::move(result),
                         repro_command(selected[i], options.suite_dir, default_suite,
                                       options.plugins, options.required_features)});
  }
  for (CaseSpec& spec : partition.filtered_out) {
    CaseResult skipped{spec.id, Outcome::skipped, "left out by --filter, --rule or --device"};
    skipped.attempts = 0;
    std::string repro = repro_command(spec, options.suite_dir, default_suite, options.plugins);
    run.cases.push_back({std::move(spec), std::move(skipped), std::move(repro)});
  }
  std::sort(run.cases.begin(), run.cases.end(),
            [](const RecordedCase& a, const RecordedCase& b) { return a.result.id < b.result.id; });
  return run;
}

}  // namespace dlpack_usm::suite
