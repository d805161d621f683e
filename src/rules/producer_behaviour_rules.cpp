// Behaviour rules of a producer's ownership (issue 16, "producer gaps"):
// what its deleter frees, whether a NULL deleter leaves memory nobody can
// free, and whether a READ_ONLY tensor goes out where no flag can say so.
// `check --producer` judges them in its plugin cases
// (src/suite/producer_cases.cpp, producer_lifetime.cpp); their vectors are
// fixture plugins listed in fixtures/plugins/behaviour_vectors.json.
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kDeleterReference = "dlpack.h 1.3, DLManagedTensorVersioned::deleter";

// None of the three rests on a must: the header describes what the deleter
// does and permits a NULL one, and says nothing of read-only legacy
// tensors. Each is the tool's reading of a sentence, hence a warning; the
// plugin case that finds one fails, as the other behaviour rules do.
constexpr std::array kProducerBehaviourRules{
    RuleDefinition{
        {"DLP-PRODUCER-STRUCT-LEAK", "behaviour",
         "Deleter leaves the managed-tensor struct allocated", Severity::warning, kFirstRelease,
         std::nullopt, kDeleterReference, "heuristic",
         "The destructor deletes the argument self as well.",
         "The tool produces and deletes the same tensor 64 times in its worker: when every "
         "struct has an address of its own (malloc hands a freed struct's memory out again) and "
         "the heap in use (glibc mallinfo2) grew by at least the struct's size a round, the "
         "DLManagedTensor(Versioned) itself is never freed. A library that allocates its "
         "structs outside malloc is not seen."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-NULL-DELETER-OWNS", "behaviour",
         "NULL deleter on a tensor whose allocation nobody else frees", Severity::warning,
         kFirstRelease, std::nullopt, kDeleterReference, "heuristic",
         "It can be NULL if there is no way for the caller to provide a reasonable destructor.",
         "A NULL deleter is allowed when there is nothing to free; a library that makes a fresh "
         "allocation for each tensor (two requests, two distinct live allocations) could free "
         "it in a deleter, and without one the memory leaks."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-READ-ONLY-LEGACY", "behaviour",
         "READ_ONLY tensor handed out as a legacy DLManagedTensor", Severity::warning,
         dl::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPACK_FLAG_BITMASK_READ_ONLY",
         "heuristic", "bit mask to indicate that the tensor is read only.",
         "Only DLManagedTensorVersioned has flags: a legacy tensor cannot say it is read only, "
         "so a consumer may write into it. Asked for a READ_ONLY tensor below DLPack 1.0, a "
         "producer declines (numpy raises BufferError for a read-only array)."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> producer_behaviour_rules() {
  return kProducerBehaviourRules;
}

}  // namespace dlpack_usm::rules
