// Asks the runtime who owns a small allocation on each of its USM devices,
// through the same interface every other step uses (SYCL or OpenCL), and
// judges the answers with DLP-RUNTIME-OWNER-ANSWER (rules/owner_answer.hpp).
// Done once per process: list-devices shows the result, and check's case
// sources block the cases that a wrong answer would make fail.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/owner_answer.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {

// One platform's answers and what the rule makes of them.
struct OwnerAnswerCheck {
  std::int32_t platform_index = 0;
  std::string first_device;  // the first device asked: where check lists the finding
  rules::OwnerAnswers answers;
  rules::OwnerAnswerVerdict verdict;

  // The wrong answer for `device` (a list-devices name), or nullptr.
  const rules::OwnerProbe* wrong_answer(const std::string& device) const;
};

// The kind a probe allocates: device USM, or shared where the device has
// no device USM; nullopt for a device without either (host USM has no owner).
std::optional<facts::UsmKind> owned_usm_kind(const DeviceInfo& device);

// Allocates on every device of `platform` (sub-devices included) that has
// an owned kind and that the platform's default context holds, asks the
// runtime who owns each allocation, and frees it. A device whose allocation
// fails is not asked: its live cases say what fails.
rules::OwnerAnswers probe_owner_answers(Runtime& runtime, const PlatformInfo& platform);

// The check of every platform with at least one device asked, made on the
// first call for `runtime` and kept for the process.
const std::vector<OwnerAnswerCheck>& owner_answer_checks(Runtime& runtime);

// The checks of the platforms where an answer can change a device_id: two
// or more of their root devices have USM of their own (owned_usm_kind), so
// a runtime can name the wrong one, as PoCL with two USM devices does.
// Where one root device has it, every device asked (it and its
// sub-devices) carries that root's id whatever the answer. list-devices
// asks these alone, made afresh; check asks every platform.
std::vector<OwnerAnswerCheck> owner_answer_checks_where_ids_can_differ(Runtime& runtime);

// The check of `platform_index` among `checks`, or nullptr.
const OwnerAnswerCheck* find_owner_answer_check(const std::vector<OwnerAnswerCheck>& checks,
                                                std::int32_t platform_index);

}  // namespace dlpack_usm::runtime
