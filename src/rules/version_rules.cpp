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
  if (tensor.abi != facts::Abi::versioned || tensor.version.major == dlpack::kModelMajor) return;
  report("version.major",
         fmt::format("major version {} differs from {}: a consumer must call the deleter and "
                     "read no other field; export version {}.x when the consumer's "
                     "max_version asks for it",
                     tensor.version.major, dlpack::kModelMajor, dlpack::kModelMajor));
}

void check_minor_newer(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (tensor.abi != facts::Abi::versioned || tensor.version.major != dlpack::kModelMajor ||
      tensor.version.minor <= dlpack::kModelMinor) {
    return;
  }
  report("version.minor",
         fmt::format("version {}.{} is unknown to this tool, which knows releases up to {}: "
                     "enumeration values and flags added after {} are not checked",
                     tensor.version.major, tensor.version.minor,
                     dlpack::to_string(dlpack::kModelRelease),
                     dlpack::to_string(dlpack::kModelRelease)));
}

constexpr std::array kVersionRules{
    RuleDefinition{
        {"DLP-VERSION-LEGACY", "version", "Legacy unversioned DLManagedTensor", Severity::info,
         kFirstRelease, dlpack::kLastLegacyRelease, "dlpack.h 1.3, DLManagedTensor", "deprecated",
         "This data structure is used as Legacy DLManagedTensor in DLPack exchange and is "
         "deprecated after DLPack v0.8 Use DLManagedTensorVersioned instead.",
         "A legacy tensor still imports; it is worth knowing because consumers that pass "
         "max_version >= (1, 0) expect the versioned struct."},
        Scope::header,
        check_legacy},
    RuleDefinition{
        {"DLP-VERSION-MAJOR", "version", "Major version differs from 1", Severity::error,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPackVersion", "must",
         "If an obtained DLPack tensor has a major version that disagrees with the version "
         "number specified in this header file (i.e. major != DLPACK_MAJOR_VERSION), the "
         "consumer must call the deleter (and it is safe to do so).",
         "A 1.x consumer may read nothing past the header of such a tensor: it cannot use it."},
        Scope::header,
        check_major},
    RuleDefinition{
        {"DLP-VERSION-MINOR-NEWER", "version", "Minor version unknown to this tool", Severity::info,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPackVersion", "heuristic",
         "In the case of a minor version mismatch, the tensor can be safely used as long as the "
         "consumer knows how to interpret all fields.",
         "A limit of this tool, not a defect of the tensor: enumeration values and flags added "
         "after the newest release the tool knows are not checked."},
        Scope::header,
        check_minor_newer},
};

}  // namespace

std::span<const RuleDefinition> version_rules() {
  return kVersionRules;
}

}  // namespace dlpack_usm::rules
