// The verdict on a consumer under test, in one place: what it did with one
// offered tensor (an observation) goes in, its class in the capability
// profile, its status and its findings come out. `check --consumer` (C
// plugins) and the Python package's `consume` (through the bridge) both
// describe what they saw and ask this module, so the two cannot disagree.
//
// The model (issue "One verdict model"): a library may decline anything,
// and a decline is recorded, never a failure; it fails for harm — other
// elements read or another view imported than the tensor describes, a
// crash or hang on a valid tensor, the deleter not called exactly once or a
// NULL deleter called, a write into a READ_ONLY tensor, a tensor of an
// unknown major version imported. Declining a tensor whose compact twin it
// accepts is a warning; so is a crash, hang or acceptance on an invalid
// tensor (nothing requires a consumer to validate).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/rule.hpp"

namespace dlpack_usm::matrix {

// What the consumer did when it was handed the tensor.
enum class ConsumerAction {
  accepted,        // it imported the tensor (and returned)
  declined,        // it refused: an UNSUPPORTED status, accepted 0, any Python exception
  crashed,         // its process died (a signal, an exit)
  hung,            // it did not return in time
  never_imported,  // Python: it returned without asking the producer for the tensor
  not_applicable,  // the tool could not offer this cell here, or the consumer's max_version
                   // is below what the cell needs: nothing to judge
};

// The compact twin offered after a valid cell was declined: the same shape,
// dtype and elements described canonically (matrix/compact_twin).
struct TwinObservation {
  std::string cell;
  bool accepted = false;
};

struct ConsumerObservation {
  // The cell offered.
  std::string cell;
  bool valid = true;
  std::string broken_rule;     // an invalid cell: the rule it breaks
  bool unknown_major = false;  // an invalid cell of a major version no 1.x consumer knows
  bool read_only = false;      // READ_ONLY was set
  bool null_deleter = false;   // the deleter offered was NULL
  // What the consumer did.
  ConsumerAction action = ConsumerAction::accepted;
  std::string reason;          // a decline's reason, or what happened (a signal)
  std::string exception_type;  // Python: the declining exception's type; empty in C
  // Python: whether the plainest tensor (float32, C order) on the same
  // memory was declined as well, so that the decline concerns the device.
  std::optional<bool> device_declined;
  // After an acceptance: what differs from the tensor offered.
  std::optional<std::string> data_difference;  // the elements read
  std::optional<std::string> view_difference;  // the view imported
  // Ownership and writes, counted by the tool's deleter and read back.
  int deleter_calls = 1;
  int expected_deleter_calls = 1;  // one per tensor handed out
  std::uint64_t read_only_bytes_written = 0;
  bool capsule_not_renamed = false;  // Python: an accepted capsule kept its name
  std::optional<TwinObservation> twin;
  // Features of the cell that the user requires (check --require, consume
  // --require): a decline of one fails.
  std::vector<std::string> required_features;
};

struct ConsumerFinding {
  std::string rule_id;
  rules::Severity severity = rules::Severity::error;
  std::string message;
};

// The status of the case, as the report spells it.
enum class ConsumerStatus { pass, warn, fail, not_supported, not_applicable };

struct ConsumerVerdict {
  // accepted, declined, wrong, accepted-invalid, crash, hang, deleter-misuse,
  // refused; empty where nothing was judged (not applicable).
  std::string profile_class;
  ConsumerStatus status = ConsumerStatus::pass;
  std::vector<ConsumerFinding> findings;
  std::string message;
  std::string decline_reason;  // a decline's reason, kept as a field
  std::string exception_type;  // a Python decline's exception type
};

ConsumerVerdict judge_consumer(const ConsumerObservation& observation);

const char* to_string(ConsumerAction action);
const char* to_string(ConsumerStatus status);

// The JSON forms the bridge takes and answers (include/dlpack_usm/bridge.h,
// dlpack_usm_bridge_consumer_verdict). Error(usage) on a malformed
// observation.
ConsumerObservation observation_from_json(const nlohmann::json& json);
nlohmann::ordered_json observation_to_json(const ConsumerObservation& observation);
nlohmann::ordered_json verdict_to_json(const ConsumerVerdict& verdict);

// The profile classes and their one-character symbols, in the order of the
// legend: the one legend C and Python print.
struct ProfileClassInfo {
  const char* name;
  char symbol;
  const char* meaning;
};
const std::vector<ProfileClassInfo>& profile_classes();

}  // namespace dlpack_usm::matrix
