// Flags family: the bits of DLManagedTensorVersioned::flags, which exist only
// in versioned tensors (1.0 and later).
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::uint64_t kKnownFlags =
    dl::kFlagReadOnly | dl::kFlagIsCopied | dl::kFlagIsSubbyteTypePadded;

bool versioned(const RuleContext& context) {
  return context.tensor.abi == facts::Abi::versioned;
}

void check_unknown_bits(const RuleContext& context, Reporter& report) {
  std::uint64_t unknown = context.tensor.flags & ~kKnownFlags;
  if (!versioned(context) || unknown == 0) return;
  report("flags", fmt::format("flags {:#x} set bits {:#x} that no DLPack release up to {} "
                              "defines; clear them (the default for flags is 0)",
                              context.tensor.flags, unknown, dl::to_string(dl::kModelRelease)));
}

void check_padded_too_early(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dl::kFlagIsSubbyteTypePadded) == 0) return;
  report("flags",
         fmt::format("IS_SUBBYTE_TYPE_PADDED (bit 2) was added in DLPack 1.1, but the tensor "
                     "declares {}; declare version 1.1 or later, or clear the bit",
                     dl::to_string(context.release)));
}

void check_padded_not_subbyte(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (!versioned(context) || (tensor.flags & dl::kFlagIsSubbyteTypePadded) == 0) return;
  // bits 0 is DLP-DTYPE-BITS-ZERO's finding, not this one's.
  if (tensor.dtype.bits < 8) return;
  report("flags", fmt::format("IS_SUBBYTE_TYPE_PADDED is set on dtype {} ({} bits), which is "
                              "not a sub-byte type; clear the bit",
                              dl::dtype_display(tensor.dtype), tensor.dtype.bits));
}

void check_read_only(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dl::kFlagReadOnly) == 0) return;
  report("flags", "READ_ONLY: the consumer must not write to the data");
}

void check_is_copied(const RuleContext& context, Reporter& report) {
  if (!versioned(context) || (context.tensor.flags & dl::kFlagIsCopied) == 0) return;
  report("flags",
         "IS_COPIED: the producer made a copy that the consumer owns until it calls the "
         "deleter; the exchange was not zero-copy");
}

constexpr std::array kRules{
    RuleDefinition{
        {"DLP-FLAGS-UNKNOWN-BITS", "flags", "Flag bits no release defines", Severity::error,
         dl::Release{1, 0}, dl::kModelRelease, "dlpack.h 1.3 (DLManagedTensorVersioned::flags)",
         "flags is a bitmask of the DLPACK_FLAG_BITMASK_* values; \"by default the flags "
         "should be set to 0\", so bits no release defines must stay clear."},
        Scope::body,
        check_unknown_bits},
    RuleDefinition{
        {"DLP-FLAGS-PADDED-VERSION", "flags", "IS_SUBBYTE_TYPE_PADDED before DLPack 1.1",
         Severity::error, dl::Release{1, 0}, dl::Release{1, 0}, "dlpack.h 1.1",
         "DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (bit 2) was introduced in DLPack 1.1; a "
         "1.0 tensor cannot carry it."},
        Scope::body,
        check_padded_too_early},
    RuleDefinition{
        {"DLP-FLAGS-PADDED-NOT-SUBBYTE", "flags", "IS_SUBBYTE_TYPE_PADDED on a whole-byte dtype",
         Severity::error, dl::Release{1, 1}, std::nullopt, "dlpack.h 1.1",
         "IS_SUBBYTE_TYPE_PADDED tells whether a sub-byte type (ex: fp4/fp6) is padded rather "
         "than packed; it has no meaning for a dtype of 8 or more bits."},
        Scope::body,
        check_padded_not_subbyte},
    RuleDefinition{
        {"DLP-FLAGS-READ-ONLY", "flags", "Tensor is read-only", Severity::info, dl::Release{1, 0},
         std::nullopt, "dlpack.h 1.0 (DLPACK_FLAG_BITMASK_READ_ONLY)",
         "The READ_ONLY bit indicates \"that the tensor is read only\": the consumer must not "
         "write through the data pointer."},
        Scope::body,
        check_read_only},
    RuleDefinition{
        {"DLP-FLAGS-IS-COPIED", "flags", "Tensor is a copy made by the producer", Severity::info,
         dl::Release{1, 0}, std::nullopt, "dlpack.h 1.0 (DLPACK_FLAG_BITMASK_IS_COPIED)",
         "The IS_COPIED bit says the tensor \"is a copy made by the producer\" and is solely "
         "owned by the consumer until the deleter is invoked: the exchange was not zero-copy."},
        Scope::body,
        check_is_copied},
};

}  // namespace

std::span<const RuleDefinition> flags_rules() {
  return kRules;
}

}  // namespace dlpack_usm::rules
