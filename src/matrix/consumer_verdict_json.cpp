// The JSON forms of observations and verdicts: what the bridge takes from
// the Python package and answers it, and what the observation table of the
// tests (tests/data/consumer_observations.json) holds.
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/json_member.hpp"
#include "matrix/consumer_verdict.hpp"

namespace dlpack_usm::matrix {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kObservationHint =
    "describe what the consumer did as include/dlpack_usm/bridge.h says "
    "(dlpack_usm_bridge_consumer_verdict)";

[[noreturn]] void fail_observation(const std::string& what) {
  fail_usage(fmt::format("consumer observation: {}", what), kObservationHint);
}

template <typename T>
T member_or(const json& object, const char* key, T fallback) {
  return json_member_or(object, key, std::move(fallback), "consumer observation", kObservationHint);
}

std::optional<std::string> optional_text(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) fail_observation(fmt::format("'{}' is not a string", key));
  return it->get<std::string>();
}

ConsumerAction parse_action(const std::string& text) {
  for (ConsumerAction action :
       {ConsumerAction::accepted, ConsumerAction::declined, ConsumerAction::crashed,
        ConsumerAction::hung, ConsumerAction::never_imported, ConsumerAction::not_applicable}) {
    if (text == to_string(action)) return action;
  }
  fail_observation(fmt::format("'{}' is no action", text));
}

void read_twin_and_features(const json& object, ConsumerObservation& seen) {
  auto twin = object.find("twin");
  if (twin != object.end() && !twin->is_null()) {
    if (!twin->is_object()) fail_observation("'twin' is not an object");
    seen.twin = TwinObservation{member_or<std::string>(*twin, "cell", ""),
                                member_or<bool>(*twin, "accepted", false)};
  }
  seen.required_features = member_or<std::vector<std::string>>(object, "required_features", {});
}

}  // namespace

ConsumerObservation observation_from_json(const json& object) {
  if (!object.is_object()) fail_observation("not a JSON object");
  ConsumerObservation seen;
  seen.cell = member_or<std::string>(object, "cell", "");
  if (seen.cell.empty()) fail_observation("'cell' names no cell");
  seen.valid = member_or<bool>(object, "valid", true);
  seen.broken_rule = member_or<std::string>(object, "broken_rule", "");
  seen.unknown_major = member_or<bool>(object, "unknown_major", false);
  seen.read_only = member_or<bool>(object, "read_only", false);
  seen.null_deleter = member_or<bool>(object, "null_deleter", false);
  seen.action = parse_action(member_or<std::string>(object, "action", ""));
  seen.reason = member_or<std::string>(object, "reason", "");
  seen.exception_type = member_or<std::string>(object, "exception_type", "");
  auto device = object.find("device_declined");
  if (device != object.end() && !device->is_null()) {
    seen.device_declined = member_or<bool>(object, "device_declined", false);
  }
  seen.data_difference = optional_text(object, "data_difference");
  seen.view_difference = optional_text(object, "view_difference");
  seen.deleter_calls = member_or<int>(object, "deleter_calls", 1);
  seen.expected_deleter_calls = member_or<int>(object, "expected_deleter_calls", 1);
  seen.read_only_bytes_written = member_or<std::uint64_t>(object, "read_only_bytes_written", 0);
  seen.capsule_not_renamed = member_or<bool>(object, "capsule_not_renamed", false);
  read_twin_and_features(object, seen);
  return seen;
}

ordered_json observation_to_json(const ConsumerObservation& seen) {
  auto text_or_null = [](const std::optional<std::string>& text) {
    return text ? ordered_json(*text) : ordered_json(nullptr);
  };
  return {{"cell", seen.cell},
          {"valid", seen.valid},
          {"broken_rule", seen.broken_rule},
          {"unknown_major", seen.unknown_major},
          {"read_only", seen.read_only},
          {"null_deleter", seen.null_deleter},
          {"action", to_string(seen.action)},
          {"reason", seen.reason},
          {"exception_type", seen.exception_type},
          {"device_declined",
           seen.device_declined ? ordered_json(*seen.device_declined) : ordered_json(nullptr)},
          {"data_difference", text_or_null(seen.data_difference)},
          {"view_difference", text_or_null(seen.view_difference)},
          {"deleter_calls", seen.deleter_calls},
          {"expected_deleter_calls", seen.expected_deleter_calls},
          {"read_only_bytes_written", seen.read_only_bytes_written},
          {"capsule_not_renamed", seen.capsule_not_renamed},
          {"twin", seen.twin
                       ? ordered_json{{"cell", seen.twin->cell}, {"accepted", seen.twin->accepted}}
                       : ordered_json(nullptr)},
          {"required_features", seen.required_features}};
}

ordered_json verdict_to_json(const ConsumerVerdict& verdict) {
  ordered_json findings = ordered_json::array();
  for (const ConsumerFinding& finding : verdict.findings) {
    findings.push_back({{"rule_id", finding.rule_id},
                        {"severity", rules::to_string(finding.severity)},
                        {"message", finding.message}});
  }
  return {{"outcome", verdict.profile_class.empty() ? ordered_json(nullptr)
                                                    : ordered_json(verdict.profile_class)},
          {"status", to_string(verdict.status)},
          {"message", verdict.message},
          {"findings", findings},
          {"decline_reason", verdict.decline_reason},
          {"exception_type", verdict.exception_type}};
}

}  // namespace dlpack_usm::matrix
