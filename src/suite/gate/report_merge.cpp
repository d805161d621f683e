#include "suite/gate/report_merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "common/sha256.hpp"
#include "suite/model/selection.hpp"

namespace dlpack_usm::suite {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using report::ExpectationRef;
using report::ShardReport;
using Group = std::vector<const ShardReport*>;

constexpr const char* kMergeHint =
    "merge the reports of one 'check' command run as --shard 1/N ... N/N; give the runs of "
    "different machines or configurations 'check --label NAME'";
// Said where a report contradicts itself or its suite.
constexpr const char* kEditedHint =
    "the report was edited, or is not what 'check --report' wrote: merge the reports as the "
    "'check' runs wrote them";

std::string group_name(const std::string& label) {
  return label.empty() ? std::string("the runs without --label")
                       : fmt::format("the runs labelled {}", label);
}

// What a run tested, for comparing shards: its libraries, without the
// paths of each machine's own checkout.
std::string plugins_text(const ShardReport& run) {
  json plugins = run.plugins;
  for (json& plugin : plugins) plugin.erase("path");
  return plugins.dump();
}

std::string expectations_text(const ShardReport& run) {
  std::vector<std::string> files;
  for (const ExpectationRef& file : run.expectations) {
    files.push_back(fmt::format("{} {}", file.kind, file.sha256));
  }
  return fmt::format("{}", fmt::join(files, ", "));
}

std::string selection_text(const Selection& selection) {
  return fmt::format("--filter [{}] --rule [{}] --device [{}]", fmt::join(selection.id_globs, " "),
                     fmt::join(selection.rule_globs, " "), fmt::join(selection.devices, " "));
}

// Two reports of one label must be shards of one run.
void require_same_run(const ShardReport& first, const ShardReport& other) {
  auto differ = [&](const char* what, const std::string& a, const std::string& b) {
    if (a == b) return;
    fail_usage(fmt::format("report merge: {} and {} are not shards of one run: their {} differ "
                           "({} and {})",
                           first.file, other.file, what, quote_for_message(a, 80),
                           quote_for_message(b, 80)),
               kMergeHint);
  };
  differ("dlpack-usm versions", first.tool_version, other.tool_version);
  differ("suites (the case lists of their machines, suites or libraries)", first.suite_digest,
         other.suite_digest);
  differ("selections (--filter, --rule, --device)", selection_text(first.selection),
         selection_text(other.selection));
  differ("shard counts", std::to_string(first.shard.count), std::to_string(other.shard.count));
  differ("expectation files (--baseline, --flakes)", expectations_text(first),
         expectations_text(other));
  differ("libraries under test", plugins_text(first), plugins_text(other));
  differ("gates (--strict)", first.strict ? "strict" : "not strict",
         other.strict ? "strict" : "not strict");
}

// Every shard of the run, each once.
void require_every_shard(const Group& group) {
  const ShardReport& first = *group.front();
  std::map<int, const ShardReport*> by_index;
  for (const ShardReport* run : group) {
    require_same_run(first, *run);
    auto [it, fresh] = by_index.emplace(run->shard.index, run);
    if (!fresh) {
      fail_usage(fmt::format("report merge: {} and {} are both shard {}/{} of {}", it->second->file,
                             run->file, run->shard.index, run->shard.count, group_name(run->label)),
                 "give each shard's report once");
    }
  }
  std::vector<std::string> missing;
  for (int index = 1; index <= first.shard.count; ++index) {
    if (!by_index.count(index)) missing.push_back(fmt::format("{}/{}", index, first.shard.count));
  }
  if (!missing.empty()) {
    fail_usage(fmt::format("report merge: {} lack shard {}", group_name(first.label),
                           fmt::join(missing, ", ")),
               "merge the report of every shard: a failing shard still writes its report");
  }
}

// The case ids of the shards together are the suite's, each once: the
// digest every shard names is the SHA-256 of them all (run_check.cpp).
void require_suite_cases(const Group& group) {
  const ShardReport& first = *group.front();
  std::map<std::string, const std::string*> file_of_case;
  for (const ShardReport* run : group) {
    for (const RecordedCase& recorded : run->cases) {
      auto [it, fresh] = file_of_case.emplace(recorded.result.id, &run->file);
      if (fresh) continue;
      fail_usage(fmt::format("report merge: case {} is in {} and in {}",
                             quote_for_message(recorded.result.id, 200), *it->second, run->file),
                 kMergeHint);
    }
  }
  std::string ids;
  for (const auto& [id, file] : file_of_case) ids.append(id).append("\n");
  if (file_of_case.size() != first.suite_cases || sha256_hex(ids) != first.suite_digest) {
    fail_usage(fmt::format("report merge: the cases of {} are not their suite's: {} cases whose "
                           "ids have the SHA-256 {}, where the suite has {} cases of SHA-256 {}",
                           group_name(first.label), file_of_case.size(), sha256_hex(ids),
                           first.suite_cases, first.suite_digest),
               fmt::format("a case was renamed, added or left out; {}", kEditedHint));
  }
}

// Each case is in the shard the run's selection puts it in, and skipped
// exactly where --filter, --rule and --device leave it out: a failing case
// cannot become a skipped one, or move to a shard that passed.
void require_shard_partition(const Group& group) {
  std::vector<CaseSpec> specs;
  for (const ShardReport* run : group) {
    for (const RecordedCase& recorded : run->cases) specs.push_back(recorded.spec);
  }
  for (const ShardReport* run : group) {
    SelectedCases expected = partition_cases(specs, run->selection);
    std::set<std::string> to_run, left_out;
    for (const CaseSpec& spec : expected.to_run) to_run.insert(spec.id);
    for (const CaseSpec& spec : expected.filtered_out) left_out.insert(spec.id);
    for (const RecordedCase& recorded : run->cases) {
      const std::string& id = recorded.result.id;
      bool skipped = recorded.result.outcome == Outcome::skipped;
      if (skipped ? left_out.count(id) > 0 : to_run.count(id) > 0) continue;
      std::string why = skipped && to_run.count(id) > 0
                            ? "is skipped, but the run's selection runs it"
                        : !skipped && left_out.count(id) > 0
                            ? "ran, but the run's selection leaves it out"
                            : fmt::format("is not in shard {}/{} of the run's selection",
                                          run->shard.index, run->shard.count);
      fail_usage(
          fmt::format("report merge: {}: case {} {}", run->file, quote_for_message(id, 200), why),
          kEditedHint);
    }
  }
}

// The expectation files a run used, as the merge was given them.
Expectations expectations_of(const ShardReport& run, const std::vector<ExpectationFile>& files,
                             std::vector<const ExpectationFile*>& used) {
  Expectations expectations;
  for (const ExpectationRef& ref : run.expectations) {
    auto file = std::find_if(files.begin(), files.end(), [&ref](const ExpectationFile& given) {
      return given.kind == ref.kind && given.sha256 == ref.sha256;
    });
    if (file == files.end()) {
      fail_usage(fmt::format("report merge: {}: its run used --{} {} (SHA-256 {}), which this "
                             "merge was not given",
                             run.file, ref.kind, quote_for_message(ref.path, 200), ref.sha256),
                 fmt::format("give 'report merge' the same file with --{} FILE: the merge "
                             "decides every verdict again from the expectation files themselves",
                             ref.kind));
    }
    expectations.files.push_back(*file);
    if (std::find(used.begin(), used.end(), &*file) == used.end()) used.push_back(&*file);
  }
  return expectations;
}

// The attempts of a case as the runner records them: none for a case that
// never ran, a first outcome only for a re-run, and a re-run only after a
// failing first attempt.
void require_attempts(const ShardReport& run, const CaseResult& result) {
  bool never_ran = result.outcome == Outcome::skipped || result.outcome == Outcome::not_run;
  const char* wrong = nullptr;
  if (never_ran != (result.attempts == 0)) {
    wrong = never_ran ? "a case that never ran has no attempts" : "a case that ran was attempted";
  } else if (result.first_outcome.has_value() != (result.attempts == 2)) {
    wrong = "a first outcome is recorded exactly for a re-run (attempts 2)";
  } else if (result.first_outcome && !is_failing(*result.first_outcome)) {
    wrong = "only a failing first attempt is re-run";
  }
  if (wrong == nullptr) return;
  fail_usage(fmt::format("report merge: {}: case {}: outcome {}, {} attempt(s), first outcome {}: "
                         "{}",
                         run.file, quote_for_message(result.id, 200), to_string(result.outcome),
                         result.attempts,
                         result.first_outcome ? to_string(*result.first_outcome) : "none", wrong),
             kEditedHint);
}

// Every verdict again, from what the run saw and the expectation files.
void require_verdicts(const ShardReport& run, const Expectations& expectations) {
  for (const RecordedCase& recorded : run.cases) {
    const CaseResult& result = recorded.result;
    require_attempts(run, result);
    Verdict decided = decide_verdict(result, expectations, run.strict);
    if (decided == result.verdict) continue;
    fail_usage(fmt::format("report merge: {}: case {} has the verdict {}, but its outcome {}{} "
                           "gives {} with the run's expectation files{}",
                           run.file, quote_for_message(result.id, 200), to_string(result.verdict),
                           to_string(result.outcome),
                           result.first_outcome
                               ? fmt::format(" (first {})", to_string(*result.first_outcome))
                               : "",
                           to_string(decided), run.strict ? " and --strict" : ""),
               kEditedHint);
  }
}

ordered_json run_header(const ShardReport& run) {
  const json& report = run.document;
  ordered_json header;
  header["file"] = run.file;
  header["label"] = run.label.empty() ? ordered_json(nullptr) : ordered_json(run.label);
  header["shard"] = fmt::format("{}/{}", run.shard.index, run.shard.count);
  header["tool_version"] = run.tool_version;
  for (const char* key :
       {"started_at", "finished_at", "duration_ms", "command_line", "environment", "summary"}) {
    header[key] = report.at(key);
  }
  return header;
}

// Label prefixes keep the cases of different machines apart. A case a
// stop left unrun has the stop's reason as its message, labelled as the
// merged run's stop_reasons label it: one stop, told apart from another
// shard's alike.
void prefix_with_label(RecordedCase& recorded, const std::string& label,
                       const std::vector<std::string>& stop_reasons) {
  if (label.empty()) return;
  std::string& message = recorded.result.message;
  if (recorded.result.outcome == Outcome::not_run &&
      std::find(stop_reasons.begin(), stop_reasons.end(), message) != stop_reasons.end()) {
    message = fmt::format("{}: {}", label, message);
  }
  recorded.result.id = fmt::format("{}/{}", label, recorded.result.id);
  recorded.spec.id = recorded.result.id;
  if (!recorded.spec.device.empty()) {
    recorded.spec.device = fmt::format("{}/{}", label, recorded.spec.device);
  }
}

// One input's part of the merged run: its cases, header, libraries, times.
void add_run(MergedRun& merged, const ShardReport& run) {
  CheckRun& out = merged.run;
  if (out.started_at.empty() || run.started_at < out.started_at) out.started_at = run.started_at;
  if (run.finished_at > out.finished_at) out.finished_at = run.finished_at;
  out.duration_ms += run.duration_ms;
  bool not_run = std::any_of(run.cases.begin(), run.cases.end(), [](const RecordedCase& c) {
    return c.result.outcome == Outcome::not_run;
  });
  out.interrupted = out.interrupted || run.interrupted || not_run;
  for (const std::string& reason : run.stop_reasons) {
    std::string labelled = run.label.empty() ? reason : fmt::format("{}: {}", run.label, reason);
    if (std::find(out.stop_reasons.begin(), out.stop_reasons.end(), labelled) ==
        out.stop_reasons.end()) {
      out.stop_reasons.push_back(std::move(labelled));
    }
  }
  for (const json& plugin : run.plugins) {
    if (std::find(out.plugins.begin(), out.plugins.end(), plugin) == out.plugins.end()) {
      out.plugins.push_back(plugin);
    }
  }
  for (RecordedCase recorded : run.cases) {
    prefix_with_label(recorded, run.label, run.stop_reasons);
    out.cases.push_back(std::move(recorded));
  }
  merged.runs.push_back(run_header(run));
}

}  // namespace

MergedRun merge_shard_reports(const std::vector<ShardReport>& inputs,
                              const std::vector<ExpectationFile>& expectation_files,
                              const std::vector<std::string>& command_line) {
  std::map<std::string, Group> groups;
  for (const ShardReport& run : inputs) groups[run.label].push_back(&run);
  std::vector<const ExpectationFile*> used;
  for (const auto& [label, group] : groups) {
    require_every_shard(group);
    require_suite_cases(group);
    require_shard_partition(group);
    for (const ShardReport* run : group) {
      require_verdicts(*run, expectations_of(*run, expectation_files, used));
    }
  }

  MergedRun merged;
  std::set<std::string> suite_ids;
  for (const ShardReport& run : inputs) {
    for (const RecordedCase& recorded : run.cases) suite_ids.insert(recorded.result.id);
  }
  merged.warnings = unmatched_entry_warnings(expectation_files, suite_ids);
  CheckRun& out = merged.run;
  out.command_line = command_line;
  merged.environment = inputs.front().document.at("environment");
  std::set<std::string> versions, labels;
  for (const ShardReport& run : inputs) {
    versions.insert(run.tool_version);
    labels.insert(run.label);
    add_run(merged, run);
  }
  for (const ExpectationFile* file : used) out.expectation_files.push_back(*file);
  out.tool_version = fmt::format("{}", fmt::join(versions, ", "));
  // Runs of different labels may differ in strictness; the merged gate is
  // strict when one of them was (each verdict is its own run's).
  out.strict =
      std::any_of(inputs.begin(), inputs.end(), [](const ShardReport& run) { return run.strict; });
  out.options = {{"merged_reports", inputs.size()}, {"labels", labels}};
  std::sort(out.cases.begin(), out.cases.end(),
            [](const RecordedCase& a, const RecordedCase& b) { return a.result.id < b.result.id; });
  return merged;
}

}  // namespace dlpack_usm::suite
