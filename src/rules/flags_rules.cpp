// Flags family: the bits of DLManagedTensorVersioned::flags, which exist only
// in versioned tensors (1.0 and later).
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// Every bit some release up to the model's defines. A bit a later release
// defines than the tensor declares is named by its own rule
// (DLP-FLAGS-PADDED-VERSION), so one stray bit gives one finding.
std::uint64_t known_flags() {
  std::uint64_t known = 0;
  for (const dlpack::FlagName& flag : dlpack::flag_table()) known |= flag.mask;
  return known;
}

bool versioned(const RuleContext& context) {
  return context.tensor.abi == facts::Abi::versioned;
}

void check_unknown_bits(const RuleContext& context, Reporter& report) {
  std::uint64_t unknown = context.tensor.flags & ~known_flags();
  if (!versioned(context) || unknown == 0) return;
  report("flags",
         fmt::format("flags {:#x} set bits {:#x} that no DLPack release up to {} "
                     "defines; the header asks for 0 by default",
                     context.tensor.flags, unknown, dlpack::to_string(dlpack::kModelRelease)));
}

void check_padded_too_early(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dlpack::kFlagIsSubbyteTypePadded) == 0) return;
  report("flags",
         fmt::format("IS_SUBBYTE_TYPE_PADDED (bit 2) was added in DLPack 1.1, but the tensor "
                     "declares {}; declare version 1.1 or later, or clear the bit",
                     dlpack::to_string(context.release)));
}

void check_padded_not_subbyte(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (!versioned(context) || (tensor.flags & dlpack::kFlagIsSubbyteTypePadded) == 0) return;
  // bits 0 is DLP-DTYPE-BITS-ZERO's finding, not this one's.
  if (tensor.dtype.bits < 8) return;
  report("flags", fmt::format("IS_SUBBYTE_TYPE_PADDED is set on dtype {} ({} bits), which is "
                              "not a sub-byte type; clear the bit",
                              dlpack::dtype_display(tensor.dtype), tensor.dtype.bits));
}

void check_read_only(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dlpack::kFlagReadOnly) == 0) return;
  report("flags", "READ_ONLY: the consumer must not write to the data");
}

void check_is_copied(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dlpack::kFlagIsCopied) == 0) return;
  report("flags",
         "IS_COPIED: the producer made a copy that the consumer owns until it calls the "
         "deleter; the exchange was not zero-copy");
}

constexpr std::string_view kFlagsReference = "dlpack.h 1.3, DLManagedTensorVersioned::flags";
constexpr std::string_view kFlagsDefaultZero = "By default the flags should be set to 0.";

constexpr std::array kFlagsRules{
    RuleDefinition{
        {"DLP-FLAGS-UNKNOWN-BITS", "flags", "Flag bits no release defines", Severity::warning,
         dlpack::Release{1, 0}, dlpack::kModelRelease, kFlagsReference, "should", kFlagsDefaultZero,
         "Bits that no release up to the tensor's declared version defines carry nothing a "
         "consumer can read; the header asks for 0 but does not forbid them."},
        Scope::body,
        check_unknown_bits},
    RuleDefinition{
        {"DLP-FLAGS-PADDED-VERSION", "flags", "IS_SUBBYTE_TYPE_PADDED before DLPack 1.1",
         Severity::warning, dlpack::Release{1, 0}, dlpack::Release{1, 0}, kFlagsReference, "should",
         kFlagsDefaultZero,
         "Bit 2 (IS_SUBBYTE_TYPE_PADDED) was defined in DLPack 1.1; a tensor is judged by its "
         "own declared version, and in 1.0 the bit is one no release defines."},
        Scope::body,
        check_padded_too_early},
    RuleDefinition{
        {"DLP-FLAGS-PADDED-NOT-SUBBYTE", "flags", "IS_SUBBYTE_TYPE_PADDED on a whole-byte dtype",
         Severity::info, dlpack::Release{1, 1}, std::nullopt,
         "dlpack.h 1.3, DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED", "heuristic",
         "This flag can be set by the producer to signal that a tensor of sub-byte type is "
         "padded.",
         "The header says when the bit can be set, not that it must not be set elsewhere; on a "
         "dtype of 8 or more bits it means nothing, which suggests a producer bug."},
        Scope::body,
        check_padded_not_subbyte},
    RuleDefinition{
        {"DLP-FLAGS-READ-ONLY", "flags", "Tensor is read-only", Severity::info,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPACK_FLAG_BITMASK_READ_ONLY",
         "heuristic", "bit mask to indicate that the tensor is read only.",
         "Worth knowing: a consumer that writes through data breaks the producer's promise."},
        Scope::body,
        check_read_only},
    RuleDefinition{
        {"DLP-FLAGS-IS-COPIED", "flags", "Tensor is a copy made by the producer", Severity::info,
         dlpack::Release{1, 0}, std::nullopt, "dlpack.h 1.3, DLPACK_FLAG_BITMASK_IS_COPIED",
         "heuristic",
         "If set, the tensor is considered solely owned throughout its lifetime by the consumer, "
         "until the producer-provided deleter is invoked.",
         "Worth knowing: the exchange was not zero-copy."},
        Scope::body,
        check_is_copied},
};

}  // namespace

std::span<const RuleDefinition> flags_rules() {
  return kFlagsRules;
}

}  // namespace dlpack_usm::rules
