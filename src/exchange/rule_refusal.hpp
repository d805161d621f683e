// A refusal of the exchange by named catalog rules. The ids travel as data,
// so callers (the check runner, tests) never parse them out of the message.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace dlpack_usm::exchange {

class RuleRefusal : public Error {
 public:
  RuleRefusal(std::vector<std::string> rule_ids, std::string what, std::string hint = {})
      : Error(ExitCode::findings, std::move(what), std::move(hint)),
        rule_ids_(std::move(rule_ids)) {}

  // The rules that refused, the deciding one first; empty when the protocol
  // refused for a reason no catalog rule covers (another device type).
  const std::vector<std::string>& rule_ids() const { return rule_ids_; }

 private:
  std::vector<std::string> rule_ids_;
};

// Refuses the exchange: what went wrong, how to fix it, and the rules that
// refused (none when no catalog rule covers the reason).
[[noreturn]] inline void refuse(std::string what, std::string hint = {},
                                std::vector<std::string> rule_ids = {}) {
  throw RuleRefusal(std::move(rule_ids), std::move(what), std::move(hint));
}

// The rule ids of a refusal, or none for any other error.
inline std::vector<std::string> refusing_rules(const Error& error) {
  const auto* refusal = dynamic_cast<const RuleRefusal*>(&error);
  return refusal != nullptr ? refusal->rule_ids() : std::vector<std::string>{};
}

}  // namespace dlpack_usm::exchange
