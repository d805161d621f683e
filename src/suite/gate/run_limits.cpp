#include "suite/gate/run_limits.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace dlpack_usm::suite {

bool counts_as_failure(const CaseResult& result) {
  return result.verdict == Verdict::regression && result.outcome != Outcome::not_run;
}

// The library under test a case calls: a Python library by its worker key
// (one interpreter and library), a C plugin by its role (case_sources()
// gives each library one source: the consumer cases call the consumer, the
// producer and exchange-API cases the producer); none for the tool's own
// cases, whose crash no library is to blame for.
std::optional<LibraryUnderTest> library_of(const CaseSpec& spec,
                                           const std::vector<plugin::PluginSpec>& libraries) {
  if (spec.crash_rule.empty() && spec.timeout_rule.empty()) return std::nullopt;
  if (!spec.library.empty()) {
    return LibraryUnderTest{spec.worker, fmt::format("Python library {}", spec.library)};
  }
  plugin::Role role = spec.source == "consumer" ? plugin::Role::consumer : plugin::Role::producer;
  auto found =
      std::find_if(libraries.begin(), libraries.end(),
                   [role](const plugin::PluginSpec& library) { return library.role == role; });
  if (found == libraries.end()) return std::nullopt;
  return LibraryUnderTest{plugin::to_string(role),
                          fmt::format("{} {}", plugin::to_string(role),
                                      std::filesystem::path(found->path).filename().string())};
}

bool hung_or_crashed(const RecordedCase& recorded) {
  const CaseResult& result = recorded.result;
  if (result.outcome == Outcome::crash || result.outcome == Outcome::timeout) return true;
  const CaseSpec& spec = recorded.spec;
  return std::any_of(result.rule_ids.begin(), result.rule_ids.end(),
                     [&spec](const std::string& rule) {
                       return rule == spec.crash_rule || rule == spec.timeout_rule;
                     });
}

std::vector<std::string> RunLimits::count(const RecordedCase& recorded) {
  std::vector<std::string> reached;
  if (std::optional<LibraryUnderTest> library = library_of(recorded.spec, options_.plugins)) {
    if (auto stopped = count_library_case(*library, recorded)) reached.push_back(*stopped);
  }
  if (options_.max_failures > 0 && !run_stopped_ && counts_as_failure(recorded.result) &&
      ++failures_ >= options_.max_failures) {
    run_stopped_ = fmt::format("the run stopped after {} failure{} (--max-failures {})", failures_,
                               failures_ == 1 ? "" : "s", options_.max_failures);
    reached.push_back(*run_stopped_);
  }
  return reached;
}

// A streak is broken by any case the library finished (a pass, a decline, a
// failure that is no crash, a hang that passed on its re-run); a case
// turned away neither counts nor breaks it, nor does the next case of the
// setup group that just hung or crashed.
std::optional<std::string> RunLimits::count_library_case(const LibraryUnderTest& library,
                                                         const RecordedCase& recorded) {
  int limit = options_.max_consecutive_hangs;
  if (limit <= 0 || recorded.result.outcome == Outcome::not_run ||
      libraries_stopped_.count(library.key)) {
    return std::nullopt;
  }
  int& streak = hang_streaks_[library.key];
  std::string& group = streak_groups_[library.key];
  bool hung = hung_or_crashed(recorded);
  bool same_group = hung && !group.empty() && group == recorded.spec.setup_group;
  streak = hung ? streak + (same_group ? 0 : 1) : 0;
  group = hung ? recorded.spec.setup_group : "";
  if (streak < limit) return std::nullopt;
  std::string reason = fmt::format(
      "the {} hung or crashed on {} consecutive cases; not tested further "
      "(--max-consecutive-hangs {})",
      library.name, streak, limit);
  libraries_stopped_[library.key] = reason;
  return reason;
}

const std::string* RunLimits::reached_for(const CaseSpec& spec) const {
  if (run_stopped_) return &*run_stopped_;
  std::optional<LibraryUnderTest> library = library_of(spec, options_.plugins);
  if (!library) return nullptr;
  auto stopped = libraries_stopped_.find(library->key);
  return stopped == libraries_stopped_.end() ? nullptr : &stopped->second;
}

std::optional<std::string> RunLimits::skip_reason(const CaseSpec& spec) {
  const std::string* reason = reached_for(spec);
  if (reason == nullptr) return std::nullopt;
  if (std::find(used_reasons_.begin(), used_reasons_.end(), *reason) == used_reasons_.end()) {
    used_reasons_.push_back(*reason);
  }
  return *reason;
}

}  // namespace dlpack_usm::suite
