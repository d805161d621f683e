// DLP-RUNTIME-OWNER-ANSWER: whether a runtime names the device an allocation
// was made on when asked who owns it (sycl::get_pointer_device,
// clGetMemAllocInfoINTEL(CL_MEM_ALLOC_DEVICE_INTEL)). Every kDLOneAPI export
// takes its device_id from that answer, so a runtime that answers wrong makes
// every SYCL library on it export wrong device ids, through no fault of the
// library. The tool asks once per device, before its live cases, and names a
// wrong answer once per platform; the cases whose verdict rests on the answer
// are then blocked rather than failed. The judgement here is pure: what was
// allocated where and what the runtime said (runtime/owner_probe.hpp asks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::rules {

inline constexpr std::string_view kOwnerAnswerRule = ids::kRuntimeOwnerAnswer;

// A device as list-devices names it, with its kDLOneAPI device_id (its root
// device's index).
struct ProbedDevice {
  std::string name;  // "opencl:cpu:0.3"
  std::int32_t device_id = 0;
  friend bool operator==(const ProbedDevice&, const ProbedDevice&) = default;
};

// One small allocation the tool made on `allocated_on`, and the device the
// runtime named as its owner.
struct OwnerProbe {
  ProbedDevice allocated_on;
  facts::UsmKind kind = facts::UsmKind::device;
  // nullopt: the runtime named no device, or one it does not list.
  std::optional<ProbedDevice> answered;
};

// What the tool asked one platform of a runtime, in its default context.
struct OwnerAnswers {
  std::string runtime;  // "opencl" or "sycl"
  std::string query;    // "sycl::get_pointer_device", "clGetMemAllocInfoINTEL(...)"
  std::string platform_name;
  std::string platform_version;
  std::vector<OwnerProbe> probes;
};

struct OwnerAnswerVerdict {
  // One finding for the platform when any answer is wrong, none otherwise.
  std::optional<Finding> finding;
  // The probes answered wrong, in probe order: their devices are blocked.
  std::vector<OwnerProbe> wrong;
};

bool answered_right(const OwnerProbe& probe);

OwnerAnswerVerdict judge_owner_answers(const OwnerAnswers& answers);

}  // namespace dlpack_usm::rules
