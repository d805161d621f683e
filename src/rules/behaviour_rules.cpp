// Behaviour family: what a library under test *does* with a tensor, which no
// fact of one struct shows: the data it puts behind its strides, whether its
// deleter frees, what a consumer reads and when it calls the deleter, and
// whether it crashes or hangs. `check --producer` and `check --consumer`
// judge these in their plugin cases (src/suite/cases/producer/producer_cases.cpp,
// consumer_cases.cpp, exchange_api_cases.cpp); their failing and passing
// vectors are the fixture plugins of fixtures/plugins/, listed in
// fixtures/plugins/behaviour_vectors.json.
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kStridesInElements =
    "strides of the tensor (in number of elements, not bytes)";
constexpr std::string_view kVersionReference = "dlpack.h 1.3, DLPackVersion";
constexpr std::string_view kMustCallDeleter =
    "If an obtained DLPack tensor has a major version that disagrees with the version number "
    "specified in this header file (i.e. major != DLPACK_MAJOR_VERSION), the consumer must "
    "call the deleter (and it is safe to do so).";
constexpr std::string_view kPluginReference = "dlpack-usm plugin.h";
constexpr std::string_view kPluginCallsReturn =
    "Every call into the library must return to its caller: produce, consume, the deleter of "
    "every tensor and the functions of an exchange API.";

// The case that judges a behaviour rule fails whatever the rule's severity;
// the severity says how strongly the sources back the verdict.
constexpr std::array kBehaviourRules{
    RuleDefinition{
        {"DLP-PRODUCER-CONTENT", "behaviour",
         "Produced tensor does not hold the requested elements where it says", Severity::error,
         kFirstRelease, std::nullopt, kStridesReference, "definition", kStridesInElements,
         "By definition element i lies at data + byte_offset + stride * index * element size: "
         "reading it there must give the producer's element i (of the dtype and shape asked "
         "for, READ_ONLY set when asked). Other bytes there mean the tensor describes other "
         "elements than the array it exports."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-DELETER-LEAK", "behaviour", "Deleter ran but the allocation lives on",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLManagedTensorVersioned",
         "should",
         "When the borrowing framework doesn't need the tensor, it should call the deleter to "
         "notify the host that the resource is no longer needed.",
         "Once the deleter has run, the producer's allocation is released."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-CHECKSUM", "behaviour",
         "Consumer read other elements than the tensor describes", Severity::error, kFirstRelease,
         std::nullopt, kStridesReference, "definition", kStridesInElements,
         "By definition a consumer finds element i at data + byte_offset + stride * index * "
         "element size (strides of any sign, any value on an extent-1 axis; NULL strides before "
         "1.2 mean compact row-major). Other elements read are another array than the one "
         "handed over."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-WRONG-VIEW", "behaviour",
         "Consumer imported another view than the tensor describes", Severity::error, kFirstRelease,
         std::nullopt, kStridesReference, "definition", kStridesInElements,
         "A consumer of plugin ABI 3 reports the view it imported: its ndim, shape, dtype and "
         "device are the tensor's, and so are its strides wherever they decide a position (an "
         "axis of extent > 1 of a tensor with elements; NULL before 1.2 means compact "
         "row-major). Reading the right bytes through a wrong view (an extent-1 axis dropped, "
         "another dtype of the same width) still hands the user another array than the tensor "
         "defines."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-CALLS-NULL-DELETER", "behaviour", "Consumer called a NULL deleter",
         Severity::error, kFirstRelease, std::nullopt,
         "dlpack.h 1.3, DLManagedTensorVersioned::deleter", "definition",
         "It can be NULL if there is no way for the caller to provide a reasonable destructor.",
         "The deleter is defined as possibly NULL, so a consumer checks it before calling it; "
         "one that calls a NULL deleter dies on the jump to address 0. The tool offers a tensor "
         "with a NULL deleter and charges a crash of that case to this rule."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-ACCEPTS-INVALID", "behaviour", "Consumer accepted an invalid tensor",
         Severity::warning, kFirstRelease, std::nullopt, kVersionReference, "convention",
         kMustCallDeleter,
         "A robust consumer validates what it imports: given a major version it does not know "
         "it may only call the deleter, and each other invalid case breaks one rule of the "
         "catalog (the rule the case names: NULL strides from 1.2, a pointer unknown to the "
         "default context, a negative or overflowing extent, NULL data with elements, an "
         "unknown device type, a device_id naming no root device). Nothing requires a consumer "
         "to check every rule, so a warning."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{{"DLP-CONSUMER-DELETER-COUNT", "behaviour",
                    "Consumer did not call the deleter exactly once", Severity::error,
                    kFirstRelease, std::nullopt, kVersionReference, "must", kMustCallDeleter,
                    "The deleter runs once: \"The destructor deletes the argument self as well.\""},
                   Scope::header,
                   judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-WRITES-READ-ONLY", "behaviour", "Consumer wrote into a READ_ONLY tensor",
         Severity::error, dl::Release{1, 0}, std::nullopt,
         "dlpack.h 1.3, DLPACK_FLAG_BITMASK_READ_ONLY", "definition",
         "bit mask to indicate that the tensor is read only.",
         "READ_ONLY defines the tensor as read only: the tool reads the allocation back after "
         "consume, and no byte of a READ_ONLY tensor's allocation may have changed."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-PROTOTYPE", "behaviour",
         "managed_tensor_allocator ignored its prototype", Severity::error, kExchangeApiSince,
         std::nullopt, "dlpack.h 1.3, DLPackManagedTensorAllocator", "definition",
         "The allocation is defined via the prototype DLTensor.",
         "The tensor the allocator returns has the prototype's dtype, ndim, shape and device, "
         "as the allocation is defined by it."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-CRASH", "behaviour", "Library under test crashed or exited", Severity::error,
         kFirstRelease, std::nullopt, kPluginReference, "must", kPluginCallsReturn,
         "produce, consume, the deleter and the exchange API's allocator are C functions that "
         "return to their caller: a signal or an exit of the process on a valid tensor is a "
         "failure of the library."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-HANG", "behaviour", "Library under test did not return in time",
         Severity::error, kFirstRelease, std::nullopt, kPluginReference, "must", kPluginCallsReturn,
         "Every call into the library returns; a case still running at check's --timeout is "
         "killed and fails."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> behaviour_rules() {
  return kBehaviourRules;
}

}  // namespace dlpack_usm::rules
