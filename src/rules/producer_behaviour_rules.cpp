// Behaviour rules of a producer's ownership (issue 16, "producer gaps"):
// what its deleter frees, whether a NULL deleter leaves memory nobody can
// free, and whether a READ_ONLY tensor goes out where no flag can say so;
// and of its timing (issue 27): whether the elements are ready on the
// consumer's queue when produce returns. `check --producer` judges them in
// its plugin cases (src/suite/cases/producer/producer_cases.cpp,
// producer_lifetime.cpp, producer_stream.cpp); their vectors are fixture
// plugins listed in fixtures/plugins/behaviour_vectors.json.
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kDeleterReference = "dlpack.h 1.3, DLManagedTensorVersioned::deleter";

// None of the first three rests on a must or on a definition a value falls
// outside of: the header describes what the deleter does and permits a NULL
// one, and says nothing of read-only legacy tensors. Each is a convention
// producers follow, hence a warning. The stream rule rests on plugin.h's
// must, which carries DLPack's own stream contract over to C.
constexpr std::array kProducerBehaviourRules{
    RuleDefinition{
        {"DLP-PRODUCER-STRUCT-LEAK", "behaviour",
         "Deleter leaves the managed-tensor struct allocated", Severity::warning, kFirstRelease,
         std::nullopt, kDeleterReference, "convention",
         "The destructor deletes the argument self as well.",
         "Producers free the struct in its own deleter, as the header describes; a leak harms "
         "no reader, so a warning. The tool produces and deletes the same tensor 64 times in "
         "its worker: when every "
         "struct has an address of its own (malloc hands a freed struct's memory out again) and "
         "the heap in use (glibc mallinfo2) grew by at least the struct's size a round, the "
         "DLManagedTensor(Versioned) itself is never freed. A library that allocates its "
         "structs outside malloc is not seen."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-NULL-DELETER-OWNS", "behaviour",
         "NULL deleter on a tensor whose allocation nobody else frees", Severity::warning,
         kFirstRelease, std::nullopt, kDeleterReference, "convention",
         "It can be NULL if there is no way for the caller to provide a reasonable destructor.",
         "A NULL deleter is allowed when there is no way to provide a destructor. A library "
         "that makes a fresh allocation for each tensor (two requests, two distinct live "
         "allocations) has one, and by convention frees the allocation in a deleter; without "
         "one the memory leaks."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-READ-ONLY-LEGACY", "behaviour",
         "READ_ONLY tensor handed out as a legacy DLManagedTensor", Severity::warning,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPACK_FLAG_BITMASK_READ_ONLY",
         "convention", "bit mask to indicate that the tensor is read only.",
         "Only DLManagedTensorVersioned has flags: a legacy tensor cannot say it is read only, "
         "so a consumer may write into it. By convention a producer asked for a READ_ONLY "
         "tensor below DLPack 1.0 declines (numpy raises BufferError for a read-only array)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-STREAM", "behaviour",
         "Elements not ready on the consumer's queue when produce returned", Severity::error,
         kFirstRelease, std::nullopt, "dlpack-usm plugin.h", "must",
         "When consumer_queue is set, the elements must be ready for every command the tool "
         "submits to consumer_queue after produce returns: finish the work that writes them, or "
         "make the queue wait for it (an event or a barrier on that queue).",
         "DLPack moves a pointer, not the guarantee that the data behind it is written; the "
         "Python specification puts it on the producer: \"the producer must synchronize or "
         "wait on the stream when necessary.\" The tool passes a queue of its own (out of "
         "order where the device allows it), reads every element on it as soon as produce "
         "returns, and reads again until the elements hold the pattern: elements that first "
         "differed and later held it were stale. Reported only where stale elements were "
         "read, with how many of the attempts read them (check --stream-attempts); a clean "
         "run proves no synchronisation, it only saw no race."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> producer_behaviour_rules() {
  return kProducerBehaviourRules;
}

}  // namespace dlpack_usm::rules
