// Behaviour rules of the verdict model on libraries (issue "One verdict
// model"): a library may decline anything, and fails for harm. These say
// what a decline may still get wrong (a tensor declined whose compact twin
// is accepted, a decline of a feature the user requires), what a
// consumer's harm on an invalid tensor weighs (a warning: nothing requires a
// consumer to validate), and which acceptance of an invalid tensor is harm
// all the same (a major version it cannot know). The consumer cases judge
// them through matrix/consumer_verdict; their vectors are fixture plugins
// (fixtures/plugins/behaviour_vectors.json) and observations
// (tests/data/consumer_observations.json).
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kLibraryPluginHeader = "dlpack-usm plugin.h";
constexpr std::string_view kLibraryMustCallDeleter =
    "If an obtained DLPack tensor has a major version that disagrees with the version number "
    "specified in this header file (i.e. major != DLPACK_MAJOR_VERSION), the consumer must "
    "call the deleter (and it is safe to do so).";
constexpr std::string_view kLibraryRefuseInvalid =
    "Given a tensor that breaks a rule of DLPack, consume should refuse it (accepted 0, with a "
    "reason) and return.";

constexpr std::array kLibraryRules{
    RuleDefinition{
        {"DLP-CONSUMER-INCONSISTENT-DECLINE", "behaviour",
         "Consumer declined a tensor whose compact twin it accepts", Severity::warning,
         kFirstRelease, std::nullopt, kStridesReference, "convention",
         "strides of the tensor (in number of elements, not bytes)",
         "A consumer may decline anything, but the compact twin holds the same elements at the "
         "same addresses, described canonically: strides of extent-1 axes and of size-0 tensors "
         "address nothing, NULL strides before 1.2 mean compact row-major, and a size-0 "
         "tensor's data is never read. Declining one and taking the other is a bug of the "
         "consumer's checks (torch's extent-1 strides and empty tensors have tripped TVM, "
         "Triton and ONNX Runtime), not a choice."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-IMPORTS-UNKNOWN-MAJOR", "behaviour",
         "Consumer imported a tensor of a major version it cannot know", Severity::error,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPackVersion", "must",
         kLibraryMustCallDeleter,
         "The header lets a consumer call the deleter of such a tensor and nothing else: "
         "importing it reads fields whose layout may have changed."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-CRASH-INVALID", "behaviour", "Library under test crashed on an invalid tensor",
         Severity::warning, kFirstRelease, std::nullopt, kLibraryPluginHeader, "should",
         kLibraryRefuseInvalid,
         "A robust consumer validates what it imports, but nothing in DLPack requires it to: a "
         "crash on a tensor that breaks a rule is a warning, where a crash on a valid one fails "
         "(DLP-PLUGIN-CRASH)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-HANG-INVALID", "behaviour", "Library under test hung on an invalid tensor",
         Severity::warning, kFirstRelease, std::nullopt, kLibraryPluginHeader, "should",
         kLibraryRefuseInvalid,
         "As DLP-PLUGIN-CRASH-INVALID: a hang on a tensor that breaks a rule is a warning, on a "
         "valid one a failure (DLP-PLUGIN-HANG)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-REQUIRED-FEATURE", "behaviour",
         "Consumer declined a feature --require names", Severity::error, kFirstRelease,
         std::nullopt, "dlpack-usm-check(1), --require", "required",
         "the features a consumer is required to take: a clean decline of a case that needs "
         "FEATURE fails DLP-CONSUMER-REQUIRED-FEATURE instead",
         "A decline is no failure of DLPack; the user's --require makes the feature a "
         "requirement of this run (dpnp needs device USM, a framework bfloat16)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-STATUS", "behaviour",
         "produce or consume returned an error or an unknown code", Severity::error, kFirstRelease,
         std::nullopt, kLibraryPluginHeader, "must",
         "produce and consume must return DLPACK_USM_OK, DLPACK_USM_UNSUPPORTED or "
         "DLPACK_USM_FAILED; DLPACK_USM_FAILED says the library failed.",
         "A decline is DLPACK_USM_UNSUPPORTED (or, for consume, accepted 0 with a reason); "
         "DLPACK_USM_FAILED and codes outside the ABI report a failure of the library itself."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> library_rules() {
  return kLibraryRules;
}

}  // namespace dlpack_usm::rules
