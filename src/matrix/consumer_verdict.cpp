#include "matrix/consumer_verdict.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::matrix {
namespace {

namespace ids = rules::ids;
using rules::Severity;

constexpr std::array<std::pair<ConsumerAction, const char*>, 6> kActionNames{{
    {ConsumerAction::accepted, "accepted"},
    {ConsumerAction::declined, "declined"},
    {ConsumerAction::crashed, "crashed"},
    {ConsumerAction::hung, "hung"},
    {ConsumerAction::never_imported, "never_imported"},
    {ConsumerAction::not_applicable, "not_applicable"},
}};

constexpr std::array<std::pair<ConsumerStatus, const char*>, 5> kStatusNames{{
    {ConsumerStatus::pass, "pass"},
    {ConsumerStatus::warn, "warn"},
    {ConsumerStatus::fail, "fail"},
    {ConsumerStatus::not_supported, "not_supported"},
    {ConsumerStatus::not_applicable, "not_applicable"},
}};

// The exceptions the DLPack Python specification recommends for a device
// the consumer does not support: BufferError now, TypeError before.
bool recommended_device_exception(const std::string& type) {
  return type == "BufferError" || type == "TypeError";
}

class Judgement {
 public:
  explicit Judgement(const ConsumerObservation& seen) : seen_(seen) {}

  void add(std::string_view rule_id, std::string message) {
    const rules::RuleInfo* rule = rules::find_rule(rule_id);
    if (rule == nullptr) {
      throw Error(ExitCode::internal, fmt::format("rule {} is not in the catalog", rule_id));
    }
    verdict_.findings.push_back(
        {std::string(rule_id), rule->severity, fmt::format("rule {}: {}", rule_id, message)});
  }

  ConsumerVerdict finish(std::string profile_class, std::string message);
  const ConsumerObservation& seen() const { return seen_; }

 private:
  const ConsumerObservation& seen_;
  ConsumerVerdict verdict_;
};

ConsumerVerdict Judgement::finish(std::string profile_class, std::string message) {
  verdict_.profile_class = std::move(profile_class);
  bool error = false, warning = false;
  for (const ConsumerFinding& finding : verdict_.findings) {
    error |= finding.severity == Severity::error;
    warning |= finding.severity == Severity::warning;
  }
  bool declined = seen_.action == ConsumerAction::declined && seen_.valid;
  verdict_.status = error      ? ConsumerStatus::fail
                    : warning  ? ConsumerStatus::warn
                    : declined ? ConsumerStatus::not_supported
                               : ConsumerStatus::pass;
  if (declined || (seen_.action == ConsumerAction::declined && !seen_.valid)) {
    verdict_.decline_reason = seen_.reason;
    verdict_.exception_type = seen_.exception_type;
  }
  // A failing case leads with what failed; others say what happened and
  // then what they warn of.
  std::vector<std::string> shown;
  for (Severity level : {Severity::error, Severity::warning}) {
    for (const ConsumerFinding& finding : verdict_.findings) {
      if (finding.severity == level) shown.push_back(finding.message);
    }
    if (level == Severity::error && !shown.empty()) break;
  }
  verdict_.message = error ? fmt::format("{}", fmt::join(shown, "; "))
                     : shown.empty()
                         ? std::move(message)
                         : fmt::format("{}; warning: {}", message, fmt::join(shown, "; "));
  return std::move(verdict_);
}

std::string deleter_note(const ConsumerObservation& seen) {
  if (seen.null_deleter) return "the NULL deleter was left alone (the tool kept ownership)";
  if (seen.expected_deleter_calls == 0) return "no tensor was handed over";
  if (seen.expected_deleter_calls == 1) return "the deleter ran once";
  return fmt::format("the deleter ran once for each of the {} tensors", seen.deleter_calls);
}

// The ownership findings every case can have: deleter calls, writes into a
// READ_ONLY tensor, a Python capsule not renamed. True when one was found.
bool judge_ownership(Judgement& judgement) {
  const ConsumerObservation& seen = judgement.seen();
  bool misuse = false;
  if (!seen.null_deleter && seen.deleter_calls != seen.expected_deleter_calls) {
    judgement.add(ids::kConsumerDeleterCount,
                  fmt::format("the deleter ran {} times for {} tensor(s) (must be once each)",
                              seen.deleter_calls, seen.expected_deleter_calls));
    misuse = true;
  }
  if (seen.capsule_not_renamed) {
    judgement.add(ids::kPyConsumerRename,
                  "the consumer returned, and its capsule still has its unused name, not "
                  "used_*: the capsule's destructor would free the tensor under it");
    misuse = true;
  }
  if (seen.read_only && seen.read_only_bytes_written > 0) {
    judgement.add(ids::kConsumerWritesReadOnly,
                  fmt::format("{} bytes of the READ_ONLY tensor's memory changed",
                              seen.read_only_bytes_written));
  }
  return misuse;
}

ConsumerVerdict judge_crash_or_hang(Judgement& judgement) {
  const ConsumerObservation& seen = judgement.seen();
  bool crashed = seen.action == ConsumerAction::crashed;
  std::string what =
      seen.reason.empty() ? (crashed ? "crashed" : "did not return in time") : seen.reason;
  if (crashed && seen.null_deleter) {
    judgement.add(ids::kConsumerCallsNullDeleter,
                  fmt::format("the tensor's deleter is NULL and the consumer died ({}): it "
                              "called the NULL deleter",
                              what));
    return judgement.finish("deleter-misuse", what);
  }
  std::string_view rule = seen.valid
                              ? (crashed ? ids::kPluginCrash : ids::kPluginHang)
                              : (crashed ? ids::kPluginCrashInvalid : ids::kPluginHangInvalid);
  judgement.add(rule, seen.valid ? fmt::format("on a valid tensor: {}", what)
                                 : fmt::format("on the invalid tensor {} (it breaks {}): {}",
                                               seen.cell, seen.broken_rule, what));
  return judgement.finish(crashed ? "crash" : "hang", what);
}

// A Python decline's exception, judged where a sentence names one.
void judge_decline_exception(Judgement& judgement) {
  const ConsumerObservation& seen = judgement.seen();
  const std::string& type = seen.exception_type;
  if (type.empty() || type == "BufferError") return;
  if (seen.device_declined.value_or(false)) {
    if (recommended_device_exception(type)) return;
    judgement.add(ids::kPyDeclineDeviceException,
                  fmt::format("the consumer declines this device with {}, where BufferError is "
                              "recommended (TypeError before)",
                              type));
    return;
  }
  judgement.add(ids::kPyDeclineException, fmt::format("declined with {}, not BufferError", type));
}

ConsumerVerdict judge_decline(Judgement& judgement) {
  const ConsumerObservation& seen = judgement.seen();
  std::string why = seen.exception_type.empty() || seen.reason.starts_with(seen.exception_type)
                        ? seen.reason
                        : fmt::format("{}: {}", seen.exception_type, seen.reason);
  bool misuse = judge_ownership(judgement);
  if (!seen.valid) {
    return judgement.finish(misuse ? "deleter-misuse" : "refused",
                            fmt::format("refused ({}, which breaks {}); {}", why, seen.broken_rule,
                                        deleter_note(seen)));
  }
  judge_decline_exception(judgement);
  if (seen.twin && seen.twin->accepted) {
    judgement.add(ids::kConsumerInconsistentDecline,
                  fmt::format("declined {} ({}) but accepted its compact twin {}, which holds "
                              "the same elements",
                              seen.cell, why, seen.twin->cell));
  }
  if (!seen.required_features.empty()) {
    judgement.add(ids::kConsumerRequiredFeature,
                  fmt::format("--require {}, but the consumer declined: {}",
                              fmt::join(seen.required_features, ", "), why));
  }
  return judgement.finish(misuse ? "deleter-misuse" : "declined",
                          fmt::format("declined ({}); {}", why, deleter_note(seen)));
}

ConsumerVerdict judge_acceptance(Judgement& judgement) {
  const ConsumerObservation& seen = judgement.seen();
  bool misuse = judge_ownership(judgement);
  if (!seen.valid) {
    if (seen.unknown_major) {
      judgement.add(ids::kConsumerImportsUnknownMajor,
                    fmt::format("the tensor of major version 2 ({}) was imported", seen.cell));
    } else {
      judgement.add(ids::kConsumerAcceptsInvalid,
                    fmt::format("the invalid tensor {} (it breaks {}) was accepted", seen.cell,
                                seen.broken_rule));
    }
    return judgement.finish(misuse ? "deleter-misuse" : "accepted-invalid",
                            fmt::format("accepted the invalid tensor {}", seen.cell));
  }
  bool wrong = seen.data_difference || seen.view_difference ||
               (seen.read_only && seen.read_only_bytes_written > 0);
  if (seen.data_difference) judgement.add(ids::kConsumerChecksum, *seen.data_difference);
  if (seen.view_difference) {
    judgement.add(ids::kConsumerWrongView,
                  fmt::format("the view the consumer imported differs: {}", *seen.view_difference));
  }
  return judgement.finish(misuse  ? "deleter-misuse"
                          : wrong ? "wrong"
                                  : "accepted",
                          fmt::format("accepted with the right elements; {}", deleter_note(seen)));
}

}  // namespace

ConsumerVerdict judge_consumer(const ConsumerObservation& observation) {
  Judgement judgement(observation);
  switch (observation.action) {
    case ConsumerAction::not_applicable: {
      ConsumerVerdict verdict;
      verdict.status = ConsumerStatus::not_applicable;
      verdict.message = fmt::format("not applicable: {}", observation.reason);
      return verdict;
    }
    case ConsumerAction::crashed:
    case ConsumerAction::hung:
      return judge_crash_or_hang(judgement);
    case ConsumerAction::never_imported:
      judgement.add(ids::kConsumerChecksum,
                    "the consumer returned without asking for the tensor, so it read none of "
                    "its elements");
      return judgement.finish("wrong", "returned without importing");
    case ConsumerAction::declined:
      return judge_decline(judgement);
    case ConsumerAction::accepted:
      break;
  }
  return judge_acceptance(judgement);
}

const char* to_string(ConsumerAction action) {
  for (const auto& [value, name] : kActionNames) {
    if (value == action) return name;
  }
  return "accepted";
}

const char* to_string(ConsumerStatus status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "fail";
}

const std::vector<ProfileClassInfo>& profile_classes() {
  static const std::vector<ProfileClassInfo> classes{
      {"accepted", '+', "accepted"},
      {"declined", '-', "declined"},
      {"refused", 'r', "invalid refused"},
      {"wrong", 'W', "wrong elements or view"},
      {"accepted-invalid", 'I', "invalid accepted"},
      {"crash", 'C', "crash"},
      {"hang", 'H', "hang"},
      {"deleter-misuse", 'D', "deleter misuse"},
  };
  return classes;
}

}  // namespace dlpack_usm::matrix
