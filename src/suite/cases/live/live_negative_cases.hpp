// The negative cases of the exchange, run live on a device: each must be
// refused by the rule it names, and the producer's deleter must run exactly
// once even though the consumer refuses the tensor.
#pragma once

#include <span>
#include <string_view>

#include "rules/rule_ids.hpp"
#include "runtime/runtime.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

struct NegativeCase {
  std::string_view name;     // "separate-context"
  std::string_view rule_id;  // the rule that must refuse it
};

std::span<const NegativeCase> negative_cases();
CaseResult run_negative_case(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                             const std::string& name);

// The rule that refuses a sub-device allocation made outside the default
// context, where that context cannot hold the sub-device.
inline constexpr std::string_view kOwnContextRule = rules::ids::kOneapiContextNotDefault;
// Allocates `kind` on `device` in a context of its own (what SYCL gives a
// sub-device its platform's default context does not hold) and expects the
// exporter to refuse it by kOwnContextRule.
CaseResult run_own_context_case(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                                facts::UsmKind kind);

}  // namespace dlpack_usm::suite
