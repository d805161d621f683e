// Deleter family: whether the consumer can hand the tensor back.
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

void check_null(const RuleContext& context, Reporter& report) {
  if (context.tensor.has_deleter) return;
  report("deleter",
         "deleter is NULL: allowed, but the consumer cannot tell the producer it is done, so "
         "the producer must keep the memory alive by other means");
}

constexpr std::array kDeleterRules{
    RuleDefinition{{"DLP-DELETER-NULL", "deleter", "NULL deleter", Severity::info, kFirstRelease,
                    std::nullopt, "dlpack.h 1.3, DLManagedTensorVersioned::deleter", "can",
                    "It can be NULL if there is no way for the caller to provide a reasonable "
                    "destructor.",
                    "Allowed; worth knowing because the producer must then keep the memory alive "
                    "by other means."},
                   Scope::header,
                   check_null},
};

}  // namespace

std::span<const RuleDefinition> deleter_rules() {
  return kDeleterRules;
}

}  // namespace dlpack_usm::rules
