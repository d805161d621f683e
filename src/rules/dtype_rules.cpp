// Dtype family: the code, bits and lanes of DLDataType.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

bool is_fp6_or_fp4(std::uint8_t code) {
  return code == dlpack::kDLFloat6_e2m3fn || code == dlpack::kDLFloat6_e3m2fn ||
         code == dlpack::kDLFloat4_e2m1fn;
}

// Codes whose definition fixes the width (bfloat16, the float8 formats,
// bcomplex as a pair of bfloat16), judged by DLP-DTYPE-BITS-FIXED; float6
// and float4 have a must of their own.
bool has_named_width(std::uint8_t code) {
  return code == dlpack::kDLBfloat || code == dlpack::kDLBcomplex ||
         (code >= dlpack::kDLFloat8_e3m4 && code <= dlpack::kDLFloat8_e8m0fnu);
}

std::string join_bits(std::span<const unsigned> bits) {
  std::string text;
  for (unsigned b : bits) text += (text.empty() ? "" : ", ") + std::to_string(b);
  return text;
}

void check_code_unknown(const RuleContext& context, Reporter& report) {
  std::uint8_t code = context.tensor.dtype.code;
  if (dlpack::find_dtype_code(code) != nullptr) return;
  report("dl_tensor.dtype.code", known_by_no_generation("dtype code", code, "DLDataTypeCode"));
}

void check_code_version(const RuleContext& context, Reporter& report) {
  const dlpack::DtypeCodeName* known = dlpack::find_dtype_code(context.tensor.dtype.code);
  if (known == nullptr || known_by_release(known->known_since, context.release)) return;
  report("dl_tensor.dtype.code",
         newer_than_declared(known->name, known->code, known->known_since, context.release));
}

void check_code_unreleased(const RuleContext& context, Reporter& report) {
  const dlpack::DtypeCodeName* known = dlpack::find_dtype_code(context.tensor.dtype.code);
  if (known == nullptr || dlpack::generation_info(known->known_since).released) return;
  report("dl_tensor.dtype.code", known_only_by_main(known->name, known->code));
}

void check_bits_zero(const RuleContext& context, Reporter& report) {
  if (context.tensor.dtype.bits != 0) return;
  report("dl_tensor.dtype.bits",
         "bits is 0: no element can be stored; set the width of one lane in bits");
}

void check_bits_invalid(const RuleContext& context, Reporter& report) {
  const dlpack::DLDataType dtype = context.tensor.dtype;
  const dlpack::DtypeCodeName* known = dlpack::find_dtype_code(dtype.code);
  if (known == nullptr || dtype.bits == 0 || dtype.code == dlpack::kDLOpaqueHandle ||
      is_fp6_or_fp4(dtype.code) || has_named_width(dtype.code)) {
    return;
  }
  std::span<const unsigned> allowed = dlpack::valid_bits(dtype.code);
  if (std::find(allowed.begin(), allowed.end(), dtype.bits) != allowed.end()) return;
  report("dl_tensor.dtype.bits",
         fmt::format("{} with {} bit{} is not a width array libraries use for it; {} takes {} "
                     "bits",
                     known->name, dtype.bits, dtype.bits == 1 ? "" : "s", known->name,
                     join_bits(allowed)));
}

void check_bits_fixed(const RuleContext& context, Reporter& report) {
  const dlpack::DLDataType dtype = context.tensor.dtype;
  if (dtype.bits == 0 || !has_named_width(dtype.code)) return;
  const unsigned width = dlpack::valid_bits(dtype.code).front();
  if (dtype.bits == width) return;
  report("dl_tensor.dtype.bits",
         fmt::format("{} with {} bits: the code names a {}-bit format, so no element of it has "
                     "another width; set bits to {}",
                     dlpack::dtype_code_display(dtype.code), dtype.bits, width, width));
}

void check_bits_fp6_fp4(const RuleContext& context, Reporter& report) {
  const dlpack::DLDataType dtype = context.tensor.dtype;
  if (!is_fp6_or_fp4(dtype.code)) return;
  const unsigned expected = dlpack::valid_bits(dtype.code).front();
  if (dtype.bits == expected) return;
  report("dl_tensor.dtype.bits",
         fmt::format("{} with {} bits: the header requires {} bits for this code, and a "
                     "consumer must stop importing any other value",
                     dlpack::dtype_code_display(dtype.code), dtype.bits, expected));
}

void check_lanes_zero(const RuleContext& context, Reporter& report) {
  if (context.tensor.dtype.lanes != 0) return;
  report("dl_tensor.dtype.lanes", "lanes is 0: no element can be stored; set lanes to 1");
}

void check_lanes_vector(const RuleContext& context, Reporter& report) {
  if (context.tensor.dtype.lanes <= 1) return;
  report("dl_tensor.dtype.lanes",
         fmt::format("lanes is {}: a vector type, which many consumers (dpctl/dpnp among them) "
                     "reject; export lanes 1 with an extra dimension of {} instead",
                     context.tensor.dtype.lanes, context.tensor.dtype.lanes));
}

constexpr std::array kDtypeRules{
    RuleDefinition{
        {"DLP-DTYPE-CODE-UNKNOWN", "dtype", "Dtype code no header defines", Severity::error,
         kFirstRelease, dlpack::kModelRelease, "dlpack.h 1.3, DLDataType::code", "definition",
         "Type code of base types.",
         "code is a type code, one of the DLDataTypeCode values: a code that no dlpack.h "
         "defines (released 0.6 to 1.3, nor main after 1.3, whose kDLBcomplex 18 the tool "
         "knows) lies outside that domain, so no consumer can tell what an element is. Tensors "
         "declaring a minor above 1.3 are not judged: a later release may define the code."},
        Scope::body,
        check_code_unknown},
    RuleDefinition{
        {"DLP-DTYPE-CODE-VERSION", "dtype", "Dtype code newer than the declared version",
         Severity::error, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLPackVersion", "definition",
         "Minor version updates indicate the addition of enumeration values.",
         "A tensor is judged by its declared version: a code first defined by a later dlpack.h "
         "(kDLBool 0.8, the float8/6/4 codes 1.1) lies outside the DLDataTypeCode of the "
         "version it declares, and a consumer of that version cannot read it. Codes are known "
         "by header generation: main after 1.3 still declares 1.3, so its kDLBcomplex is in "
         "place in a tensor declaring 1.3."},
        Scope::body,
        check_code_version},
    RuleDefinition{
        {"DLP-DTYPE-CODE-UNRELEASED", "dtype", "Dtype code only main's header defines",
         Severity::info, dlpack::kModelRelease, dlpack::kModelRelease,
         "dlpack.h 1.3, DLPackVersion", "heuristic", kMinorMismatchSentence,
         "kDLBcomplex (dlpack#187) was merged after the 1.3 tag without a minor bump: a "
         "producer built against main declares 1.3 and is not wrong to use it, but a consumer "
         "built against the released 1.3 header does not know it and may refuse the tensor. "
         "Worth knowing only."},
        Scope::body,
        check_code_unreleased},
    RuleDefinition{
        {"DLP-DTYPE-BITS-ZERO", "dtype", "Dtype with 0 bits", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLDataType::bits", "definition",
         "Number of bits, common choices are 8, 16, 32.",
         "bits is the width of one lane of an element: 0 bits is no element at all, outside "
         "what the field defines, and GetDataSize gives 0 bytes for any shape."},
        Scope::body,
        check_bits_zero},
    RuleDefinition{
        {"DLP-DTYPE-BITS-FP6-FP4", "dtype", "float6 or float4 code with other bits than 6 or 4",
         Severity::error, dlpack::Release{1, 1}, std::nullopt, "dlpack.h 1.3, DLDataTypeCode",
         "must",
         "Setting bits != 6 is currently unspecified, and the producer must ensure it is set "
         "while the consumer must stop importing if the value is unexpected.",
         "The same sentence stands under the float4 code with 4 in place of 6."},
        Scope::body,
        check_bits_fp6_fp4},
    RuleDefinition{
        {"DLP-DTYPE-BITS-FIXED", "dtype", "Bits other than the width the code names",
         Severity::error, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType", "definition",
         "float8_e4m3: type_code = 8, bits = 8, lanes = 1 (packed in memory)",
         "A code that names a format fixes its width: kDLBfloat is defined as bfloat16, a "
         "16-bit format, and the float8 codes (\"FP8 data types\") as 8-bit formats, as the "
         "example shows; kDLBcomplex (main after 1.3, dlpack#187) as a complex number of two "
         "bfloat16, laid out as kDLComplex: 32 bits. Another width lies outside what the code "
         "defines, so a consumer cannot read an element of it."},
        Scope::body,
        check_bits_fixed},
    RuleDefinition{
        {"DLP-DTYPE-BITS-INVALID", "dtype", "Bits not a width array libraries use for the code",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType", "convention",
         "bool: type_code = 6, bits = 8, lanes = 1 (as per common array library convention, the "
         "underlying storage size of bool is 8 bits)",
         "Array libraries agree on the widths of each code: bool 8 (the header's own words), "
         "complex a compact pair (64 or 128; 32 for complex32), float 16/32/64, int/uint 8-64 "
         "(1/2/4 for sub-byte integers). No sentence fixes these widths, so another one is a "
         "warning. bfloat16 and the float8 codes are DLP-DTYPE-BITS-FIXED's, float6 and float4 "
         "DLP-DTYPE-BITS-FP6-FP4's."},
        Scope::body,
        check_bits_invalid},
    RuleDefinition{
        {"DLP-DTYPE-LANES-ZERO", "dtype", "Dtype with 0 lanes", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLDataType::lanes", "definition",
         "Number of lanes in the type, used for vector types.",
         "lanes counts the values of one element, 1 for a scalar: 0 lanes is no value, outside "
         "what the field defines, and GetDataSize multiplies by bits * lanes."},
        Scope::body,
        check_lanes_zero},
    RuleDefinition{{"DLP-DTYPE-LANES-VECTOR", "dtype", "Vector dtype (lanes > 1)", Severity::info,
                    kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType::lanes", "heuristic",
                    "Number of lanes in the type, used for vector types.",
                    "Legal, but dpctl/dpnp and other consumers reject lanes != 1."},
                   Scope::body,
                   check_lanes_vector},
};

}  // namespace

std::span<const RuleDefinition> dtype_rules() {
  return kDtypeRules;
}

}  // namespace dlpack_usm::rules
