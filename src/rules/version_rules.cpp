// Version family: which exchange struct the producer used and whether its
// declared version is one a 1.x consumer may read.
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

void check_legacy(const RuleContext& context, Reporter& report) {
  if (context.tensor.abi != facts::Abi::legacy) return;
  report("version",
         "legacy DLManagedTensor (no version field), deprecated after DLPack 0.8; export "
         "DLManagedTensorVersioned when the consumer passes max_version >= (1, 0)");
}

void check_major(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (tensor.abi != facts::Abi::versioned || tensor.version.major == dl::kModelMajor) return;
  report("version.major",
         fmt::format("major version {} differs from {}: a consumer must call the deleter and "
                     "read no other field; export version {}.x when the consumer's "
                     "max_version asks for it",
                     tensor.version.major, dl::kModelMajor, dl::kModelMajor));
}

void check_minor_newer(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (tensor.abi != facts::Abi::versioned || tensor.version.major != dl::kModelMajor ||
      tensor.version.minor <= dl::kModelMinor) {
    return;
  }
  report("version.minor",
         fmt::format("version {}.{} is newer than {}, the newest release this tool knows: "
                     "enumeration values added after {} are not checked; export the newest "
                     "version the consumer's max_version allows",
                     tensor.version.major, tensor.version.minor, dl::to_string(dl::kModelRelease),
                     dl::to_string(dl::kModelRelease)));
}

constexpr std::array kRules{
    RuleDefinition{
        {"DLP-VERSION-LEGACY", "version", "Legacy unversioned DLManagedTensor", Severity::info,
         kFirstRelease, dl::kLastLegacyRelease, "dlpack.h 1.0 (DLManagedTensor)",
         "DLManagedTensor is the legacy exchange struct, \"deprecated after DLPack v0.8\"; "
         "producers should use DLManagedTensorVersioned instead."},
        Scope::header,
        check_legacy},
    RuleDefinition{
        {"DLP-VERSION-MAJOR", "version", "Major version differs from 1", Severity::error,
         dl::Release{1, 0}, std::nullopt, "dlpack.h 1.0 (DLPackVersion)",
         "If a tensor's major version disagrees with the consumer's DLPACK_MAJOR_VERSION, the "
         "consumer must call the deleter (it is safe to do so); \"it is not safe to access any "
         "other fields\" because the memory layout will have changed."},
        Scope::header,
        check_major},
    RuleDefinition{
        {"DLP-VERSION-MINOR-NEWER", "version", "Minor version newer than this tool knows",
         Severity::warning, dl::Release{1, 0}, std::nullopt, "dlpack.h 1.0 (DLPackVersion)",
         "On a minor version mismatch the tensor can be used \"as long as the consumer knows "
         "how to interpret all fields\"; minor updates add enumeration values this tool may "
         "not know."},
        Scope::header,
        check_minor_newer},
};

}  // namespace

std::span<const RuleDefinition> version_rules() {
  return kRules;
}

}  // namespace dlpack_usm::rules
