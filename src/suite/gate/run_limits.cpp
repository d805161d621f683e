#include "suite/gate/run_limits.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace dlpack_usm::suite {

bool counts_as_failure(const CaseResult& result) {
  return result.verdict == Verdict::regression && result.outcome != Outcome::not_run;
}

const plugin::PluginSpec* library_of(const CaseSpec& spec,
                                     const std::vector<plugin::PluginSpec>& libraries) {
  if (spec.crash_rule.empty() && spec.timeout_rule.empty()) return nullptr;
  // The consumer cases call the consumer; the producer and exchange-API
  // cases the producer (case_sources() gives each library one source).
  plugin::Role role = spec.source == "consumer" ? plugin::Role::consumer : plugin::Role::producer;
  auto found =
      std::find_if(libraries.begin(), libraries.end(),
                   [role](const plugin::PluginSpec& library) { return library.role == role; });
  return found == libraries.end() ? nullptr : &*found;
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
  if (const plugin::PluginSpec* library = library_of(recorded.spec, options_.plugins)) {
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
// turned away neither counts nor breaks it.
std::optional<std::string> RunLimits::count_library_case(const plugin::PluginSpec& library,
                                                         const RecordedCase& recorded) {
  int limit = options_.max_consecutive_hangs;
  if (limit <= 0 || recorded.result.outcome == Outcome::not_run ||
      libraries_stopped_.count(library.role)) {
    return std::nullopt;
  }
  int& streak = hang_streaks_[library.role];
  streak = hung_or_crashed(recorded) ? streak + 1 : 0;
  if (streak < limit) return std::nullopt;
  std::string reason = fmt::format(
      "the {} {} hung or crashed on {} consecutive cases; not tested further "
      "(--max-consecutive-hangs {})",
      plugin::to_string(library.role), std::filesystem::path(library.path).filename().string(),
      streak, limit);
  libraries_stopped_[library.role] = reason;
  return reason;
}

const std::string* RunLimits::reached_for(const CaseSpec& spec) const {
  if (run_stopped_) return &*run_stopped_;
  const plugin::PluginSpec* library = library_of(spec, options_.plugins);
  if (library == nullptr) return nullptr;
  auto stopped = libraries_stopped_.find(library->role);
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
