// Alignment family: the first element against its scalar's natural
// alignment, and data against the 256 bytes the header once promised.
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// The alignment a C compiler gives one scalar of the dtype: bits / 8 for
// scalars, one component (bits / 16) for complex and bcomplex, one lane for vector
// types (consumers read vectors lane by lane). 0 where there is no whole-byte
// power-of-two scalar (sub-byte or invalid widths), which skips the check.
std::uint64_t natural_alignment(dl::DLDataType dtype) {
  if (dtype.bits < 8 || dtype.bits % 8 != 0) return 0;
  std::uint64_t bytes = dtype.bits / 8u;
  if (dtype.code == dl::kDLComplex || dtype.code == dl::kDLBcomplex) bytes /= 2;
  if (bytes == 0 || (bytes & (bytes - 1)) != 0) return 0;
  return bytes;
}

// Whether there is a real address with elements behind it. dlpack.h says
// what data is on the device types whose API hands out buffer objects:
// "This will be CUDA device pointer or cl_mem handle in OpenCL. It may be
// opaque on some device types." A handle (cl_mem, VkBuffer, id<MTLBuffer>, a
// WebGPU buffer) has no alignment: where the buffer lies is its API's affair.
bool has_addressed_elements(const RuleContext& context) {
  return context.tensor.data != 0 && !known_empty(context) && !data_is_handle(context.tensor);
}

void check_element_alignment(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  std::uint64_t natural = natural_alignment(tensor.dtype);
  if (natural <= 1 || !has_addressed_elements(context) || byte_offset_misaligned(context)) return;
  std::uint64_t first = 0;
  if (__builtin_add_overflow(tensor.data, tensor.byte_offset, &first)) return;
  if (first % natural == 0) return;
  report(tensor.byte_offset == 0 ? "dl_tensor.data" : "dl_tensor.data+byte_offset",
         fmt::format("the first element at {:#x} is not aligned to {} bytes, the natural "
                     "alignment of {}; consumers that load it as a {} may fault or be slow. "
                     "Export an aligned allocation",
                     first, natural, dl::dtype_display(tensor.dtype),
                     dl::dtype_display(tensor.dtype)));
}

void check_256(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (!has_addressed_elements(context) || tensor.data % 256 == 0) return;
  report("dl_tensor.data",
         fmt::format("data {:#x} is aligned to {} bytes, not 256; the header asks for 256 (use "
                     "byte_offset for views) but says consumers should not rely on it",
                     tensor.data, context.derived.data_alignment));
}

constexpr std::array kAlignmentRules{
    RuleDefinition{
        {"DLP-ALIGN-ELEMENT", "alignment", "First element not naturally aligned", Severity::warning,
         kFirstRelease, std::nullopt, "dlpack.h 1.3, DLTensor::data", "convention",
         "This pointer is always aligned to 256 bytes as in CUDA.",
         "The header once promised 256-byte alignment and now recommends that consumers not "
         "rely on it; what allocators and array libraries still give is the natural alignment "
         "of the scalar (one component for complex), and a consumer that loads an element as "
         "that type faults or is slow on some devices without it. A convention, so a warning. "
         "Not judged where data is a handle (kDLOpenCL, kDLVulkan, kDLMetal, kDLWebGPU): the "
         "same comment says data \"may be opaque on some device types\"."},
        Scope::body,
        check_element_alignment},
    RuleDefinition{
        {"DLP-ALIGN-256", "alignment", "data not 256-byte aligned", Severity::info, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLTensor::data", "recommended",
         "at the moment it is recommended to not rely on the data pointer being correctly "
         "aligned.",
         "The header once promised 256-byte alignment (\"always aligned to 256 bytes as in "
         "CUDA\") and qualifies it itself: many libraries ignore it, and consumers are "
         "recommended not to rely on it; worth knowing only. Not judged where data is a "
         "handle (kDLOpenCL, kDLVulkan, kDLMetal, kDLWebGPU), which has no address."},
        Scope::body,
        check_256},
};

}  // namespace

std::span<const RuleDefinition> alignment_rules() {
  return kAlignmentRules;
}

}  // namespace dlpack_usm::rules
