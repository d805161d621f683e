// The exchange names catalog rules in its own refusals; each must exist, or
// a user would look up a rule `dlpack-usm rules` does not list.
#include <gtest/gtest.h>

#include "exchange/rule_ids.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::exchange {
namespace {

TEST(ExchangeRuleIds, EveryIdTheExchangeNamesIsInTheCatalog) {
  for (std::string_view id :
       {rule_ids::kDefaultContext, rule_ids::kUsmUnknown, rule_ids::kDeviceIdRange,
        rule_ids::kDeviceIdNegative, rule_ids::kVersionMajor, rule_ids::kExtentOutsideAllocation}) {
    const rules::RuleInfo* rule = rules::find_rule(id);
    ASSERT_NE(rule, nullptr) << id;
    // The exchange refuses errors (rule_gate.cpp): a refusal it names
    // itself is one the rule engine would make.
    EXPECT_EQ(rule->severity, rules::Severity::error) << id;
  }
  // The reader's limit is refused whatever its severity.
  EXPECT_NE(rules::find_rule(rule_ids::kNdimLimit), nullptr);
}

}  // namespace
}  // namespace dlpack_usm::exchange
