// Addressing family: where the elements lie. Uses the byte extent derived
// from the strides (facts/derived.hpp), never the product of the shape, so
// views with negative, overlapping or padded strides are judged by the bytes
// they really touch.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// The address of the first element and the [low, end) byte range the
// elements occupy, when the tensor has elements, a non-NULL data address and
// all of it fits in 64 bits. A handle is no address ("cl_mem handle in
// OpenCL. It may be opaque on some device types."): its elements lie at
// byte_offset into a buffer only its API can place, so no range is made.
struct Span {
  std::uint64_t first = 0;
  std::uint64_t low = 0;
  std::uint64_t end = 0;
};

enum class SpanStatus { ok, not_applicable, wraps };

SpanStatus byte_span(const RuleContext& context, Span& span) {
  const facts::TensorFacts& tensor = context.tensor;
  const facts::DerivedFacts& derived = context.derived;
  if (tensor.data == 0 || known_empty(context) || data_is_handle(tensor) || !derived.lowest_byte ||
      !derived.end_byte) {
    return SpanStatus::not_applicable;
  }
  if (__builtin_add_overflow(tensor.data, tensor.byte_offset, &span.first))
    return SpanStatus::wraps;
  // lowest_byte <= 0 <= end_byte by construction.
  std::uint64_t below = static_cast<std::uint64_t>(-*derived.lowest_byte);
  std::uint64_t above = static_cast<std::uint64_t>(*derived.end_byte);
  if (below > span.first || __builtin_add_overflow(span.first, above, &span.end)) {
    return SpanStatus::wraps;
  }
  span.low = span.first - below;
  return SpanStatus::ok;
}

void check_offset_unaligned(const RuleContext& context, Reporter& report) {
  if (!byte_offset_misaligned(context)) return;
  report("dl_tensor.byte_offset",
         fmt::format("byte_offset {} is not a multiple of the element size {} of {}; consumers "
                     "that count the offset in elements read the wrong ones",
                     context.tensor.byte_offset, context.derived.element_bytes,
                     dlpack::dtype_display(context.tensor.dtype)));
}

bool has_unsigned_division_stride(const RuleContext& context) {
  const auto& strides = context.tensor.strides;
  if (!strides) return false;
  return std::any_of(strides->begin(), strides->end(), [&context](std::int64_t stride) {
    return unsigned_division_stride(stride, context.derived.element_bytes).has_value();
  });
}

void check_extent_overflow(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const facts::DerivedFacts& derived = context.derived;
  // A literal, not a string: made for every tensor, reported for few.
  const char* field = tensor.strides ? "dl_tensor.strides" : "dl_tensor.shape";
  if (derived.element_count_overflows) {
    report("dl_tensor.shape",
           "the product of the shape overflows 64 bits; no allocation can hold this tensor. "
           "Check the extents");
    return;
  }
  if (derived.extent_overflows && !has_unsigned_division_stride(context)) {
    report(field,
           "the byte extent computed from shape, strides and element size overflows 64 bits; "
           "check the strides (they count elements, not bytes)");
    return;
  }
  Span span;
  if (byte_span(context, span) != SpanStatus::wraps) return;
  report(field,
         fmt::format("the elements span bytes [{}, {}) around data {:#x} + byte_offset {}, "
                     "which leaves the 64-bit address space; check data, byte_offset and the "
                     "strides",
                     *derived.lowest_byte, *derived.end_byte, tensor.data, tensor.byte_offset));
}

void check_outside_allocation(const RuleContext& context, Reporter& report) {
  const auto& runtime = context.tensor.runtime;
  if (!runtime || !runtime->alloc_base || !runtime->alloc_size) return;
  Span span;
  if (byte_span(context, span) != SpanStatus::ok) return;
  std::uint64_t base = *runtime->alloc_base;
  std::uint64_t size = *runtime->alloc_size;
  if (span.low >= base && span.end - base <= size) return;
  std::uint64_t alloc_end = 0;
  std::string allocation = __builtin_add_overflow(base, size, &alloc_end)
                               ? fmt::format("{} bytes at {:#x}", size, base)
                               : fmt::format("[{:#x}, {:#x}) ({} bytes)", base, alloc_end, size);
  report("dl_tensor.data",
         fmt::format("the elements occupy [{:#x}, {:#x}) but the allocation is {}; fix data, "
                     "byte_offset or the strides so that every element lies inside the allocation",
                     span.low, span.end, allocation));
}

void check_data_null(const RuleContext& context, Reporter& report) {
  const auto& count = context.derived.element_count;
  if (context.tensor.data != 0 || !count || *count == 0) return;
  report("dl_tensor.data",
         fmt::format("data is NULL but the tensor has {} element(s); point data at the "
                     "allocation (only a size-0 tensor may have NULL data)",
                     *count));
}

void check_empty_not_null(const RuleContext& context, Reporter& report) {
  if (context.tensor.data == 0 || !known_empty(context)) return;
  report("dl_tensor.data",
         fmt::format("the tensor has size 0 but data is {:#x}; the header recommends NULL",
                     context.tensor.data));
}

constexpr std::string_view kDataReference = "dlpack.h 1.3, DLTensor::data";
constexpr std::string_view kDataPointsToAllocation =
    "The data pointer points to the allocated data.";
constexpr std::string_view kEmptyDataNull =
    "Note that if the tensor is of size zero, then the data pointer should be set to `NULL`.";

constexpr std::array kAddressingRules{
    RuleDefinition{
        {"DLP-OFFSET-UNALIGNED", "addressing", "byte_offset not a multiple of the element size",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLTensor::byte_offset",
         "convention", "The offset in bytes to the beginning pointer to data",
         "Array libraries compute byte_offset as an element offset times the element size, and "
         "consumers that turn it back into an element offset (byte_offset / element size) read "
         "the wrong elements otherwise. The header asks only for a count of bytes, so a "
         "warning."},
        Scope::body,
        check_offset_unaligned},
    RuleDefinition{
        {"DLP-EXTENT-OVERFLOW", "addressing", "Byte extent overflows 64 bits", Severity::error,
         kFirstRelease, std::nullopt, kDataReference, "definition",
         "For given DLTensor, the size of memory required to store the contents of data is "
         "calculated as follows:",
         "The memory a tensor needs follows from its shape, strides (in elements) and the "
         "element size; a size or an address range beyond 64 bits is not representable, so the "
         "tensor describes memory no allocation can be. Strides that are negative strides "
         "divided as unsigned numbers are DLP-STRIDES-UNSIGNED-DIVISION's."},
        Scope::body,
        check_extent_overflow},
    RuleDefinition{
        {"DLP-EXTENT-OUTSIDE-ALLOCATION", "addressing",
         "Elements reach outside the known allocation", Severity::error, kFirstRelease,
         std::nullopt, kDataReference, "definition", kDataPointsToAllocation,
         "The elements lie at data + byte_offset + stride * index * element size, and data "
         "points to the allocated data: every element the strides reach lies in the allocation "
         "the runtime says the producer owns. One outside it is memory the tensor does not own, "
         "another object's or none. Not judged where data is a handle (kDLOpenCL, kDLVulkan, "
         "kDLMetal, kDLWebGPU), whose buffer only its API can place."},
        Scope::body,
        check_outside_allocation},
    RuleDefinition{
        {"DLP-DATA-NULL", "addressing", "NULL data with elements", Severity::error, kFirstRelease,
         std::nullopt, kDataReference, "definition", kDataPointsToAllocation,
         "A NULL data pointer points to no allocated data, so a tensor with elements "
         "has nowhere to keep them; only a size-0 tensor is described with NULL data "
         "(DLP-DATA-EMPTY-NOT-NULL)."},
        Scope::body,
        check_data_null},
    RuleDefinition{
        {"DLP-DATA-EMPTY-NOT-NULL", "addressing", "Size-0 tensor with non-NULL data",
         Severity::warning, kFirstRelease, std::nullopt, kDataReference, "should", kEmptyDataNull,
         "The header asks for NULL; most consumers accept either, but one that looks "
         "the pointer up in its runtime may refuse an address that holds no "
         "allocation."},
        Scope::body,
        check_empty_not_null},
};

}  // namespace

std::span<const RuleDefinition> addressing_rules() {
  return kAddressingRules;
}

}  // namespace dlpack_usm::rules
