// Dtype family: the code, bits and lanes of DLDataType.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// The widths each code may carry. Decisions beyond the header's examples:
// int/uint also take 1, 2 and 4 bits, the sub-byte integers of ml_dtypes
// and PyTorch that DLPack 1.1's packed sub-byte layout describes; complex
// also takes 32 bits, PyTorch's complex32 (ComplexHalf). Opaque handles
// take any width, as their layout is agreed between the two frameworks.
constexpr std::array<unsigned, 7> kIntBits{1, 2, 4, 8, 16, 32, 64};
constexpr std::array<unsigned, 3> kFloatBits{16, 32, 64};
constexpr std::array<unsigned, 3> kComplexBits{32, 64, 128};
constexpr std::array<unsigned, 1> k16Bits{16};
constexpr std::array<unsigned, 1> k8Bits{8};
constexpr std::array<unsigned, 1> k6Bits{6};
constexpr std::array<unsigned, 1> k4Bits{4};

std::span<const unsigned> valid_bits(std::uint8_t code) {
  switch (code) {
    case dl::kDLInt:
    case dl::kDLUInt:
      return kIntBits;
    case dl::kDLFloat:
      return kFloatBits;
    case dl::kDLBfloat:
      return k16Bits;
    case dl::kDLComplex:
      return kComplexBits;
    case dl::kDLBool:
      return k8Bits;
    case dl::kDLFloat6_e2m3fn:
    case dl::kDLFloat6_e3m2fn:
      return k6Bits;
    case dl::kDLFloat4_e2m1fn:
      return k4Bits;
    default:
      break;
  }
  if (code >= dl::kDLFloat8_e3m4 && code <= dl::kDLFloat8_e8m0fnu) return k8Bits;
  return {};
}

bool is_fp6_or_fp4(std::uint8_t code) {
  return code == dl::kDLFloat6_e2m3fn || code == dl::kDLFloat6_e3m2fn ||
         code == dl::kDLFloat4_e2m1fn;
}

std::string join_bits(std::span<const unsigned> bits) {
  std::string text;
  for (unsigned b : bits) text += (text.empty() ? "" : ", ") + std::to_string(b);
  return text;
}

void check_code_unknown(const RuleContext& context, Reporter& report) {
  std::uint8_t code = context.tensor.dtype.code;
  if (dl::find_dtype_code(code) != nullptr) return;
  report("dl_tensor.dtype.code",
         fmt::format("dtype code {} is not a DLDataTypeCode of any DLPack release up to {}; use "
                     "one of the kDL* codes",
                     code, dl::to_string(dl::kModelRelease)));
}

void check_code_version(const RuleContext& context, Reporter& report) {
  const dl::DtypeCodeName* known = dl::find_dtype_code(context.tensor.dtype.code);
  if (known == nullptr || known->since <= context.release) return;
  report("dl_tensor.dtype.code",
         fmt::format("{} ({}) was added in DLPack {}, but the tensor declares {}; declare "
                     "version {} or later",
                     known->name, known->code, dl::to_string(known->since),
                     dl::to_string(context.release), dl::to_string(known->since)));
}

void check_bits_zero(const RuleContext& context, Reporter& report) {
  if (context.tensor.dtype.bits != 0) return;
  report("dl_tensor.dtype.bits",
         "bits is 0: no element can be stored; set the width of one lane in bits");
}

void check_bits_invalid(const RuleContext& context, Reporter& report) {
  const dl::DLDataType dtype = context.tensor.dtype;
  const dl::DtypeCodeName* known = dl::find_dtype_code(dtype.code);
  if (known == nullptr || dtype.bits == 0 || dtype.code == dl::kDLOpaqueHandle ||
      is_fp6_or_fp4(dtype.code)) {
    return;
  }
  std::span<const unsigned> allowed = valid_bits(dtype.code);
  if (std::find(allowed.begin(), allowed.end(), dtype.bits) != allowed.end()) return;
  report("dl_tensor.dtype.bits",
         fmt::format("{} with {} bit{} is not a valid type; {} takes {} bits", known->name,
                     dtype.bits, dtype.bits == 1 ? "" : "s", known->name, join_bits(allowed)));
}

void check_bits_fp6_fp4(const RuleContext& context, Reporter& report) {
  const dl::DLDataType dtype = context.tensor.dtype;
  if (!is_fp6_or_fp4(dtype.code)) return;
  const unsigned expected = valid_bits(dtype.code).front();
  if (dtype.bits == expected) return;
  report("dl_tensor.dtype.bits",
         fmt::format("{} with {} bits: the header requires {} bits for this code, and a "
                     "consumer must stop importing any other value",
                     dl::dtype_code_display(dtype.code), dtype.bits, expected));
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

constexpr std::string_view kCodeShouldBeKnown =
    "We keep it uint8_t instead of DLDataTypeCode for minimal memory footprint, but the value "
    "should be one of DLDataTypeCode enum values.";

constexpr std::array kDtypeRules{
    RuleDefinition{{"DLP-DTYPE-CODE-UNKNOWN", "dtype", "Dtype code no release defines",
                    Severity::warning, kFirstRelease, dl::kModelRelease,
                    "dlpack.h 1.3, DLDataType::code", "should", kCodeShouldBeKnown,
                    "A code no release up to the tool's defines is one no consumer reads."},
                   Scope::body,
                   check_code_unknown},
    RuleDefinition{
        {"DLP-DTYPE-CODE-VERSION", "dtype", "Dtype code newer than the declared version",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType::code", "should",
         kCodeShouldBeKnown,
         "A tensor is judged by its declared version: a code added later (kDLBool 0.8, the "
         "float8/6/4 codes 1.1) is not one of that release's DLDataTypeCode values."},
        Scope::body,
        check_code_version},
    RuleDefinition{{"DLP-DTYPE-BITS-ZERO", "dtype", "Dtype with 0 bits", Severity::warning,
                    kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType::bits", "heuristic",
                    "Number of bits, common choices are 8, 16, 32.",
                    "No sentence forbids 0, but an element of 0 bits holds no data."},
                   Scope::body,
                   check_bits_zero},
    RuleDefinition{
        {"DLP-DTYPE-BITS-FP6-FP4", "dtype", "float6 or float4 code with other bits than 6 or 4",
         Severity::error, dl::Release{1, 1}, std::nullopt, "dlpack.h 1.3, DLDataTypeCode", "must",
         "Setting bits != 6 is currently unspecified, and the producer must ensure it is set "
         "while the consumer must stop importing if the value is unexpected.",
         "The same sentence stands under the float4 code with 4 in place of 6."},
        Scope::body,
        check_bits_fp6_fp4},
    RuleDefinition{
        {"DLP-DTYPE-BITS-INVALID", "dtype", "Bits not valid for the dtype code", Severity::warning,
         kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType", "heuristic",
         "bool: type_code = 6, bits = 8, lanes = 1 (as per common array library convention, the "
         "underlying storage size of bool is 8 bits)",
         "The header's examples and common convention fix the widths of each code: bool 8, "
         "complex a compact pair (64 or 128; 32 for complex32), bfloat 16, float8 codes 8, float "
         "16/32/64, int/uint 8-64 (1/2/4 for sub-byte integers). float6 and float4 are "
         "DLP-DTYPE-BITS-FP6-FP4's."},
        Scope::body,
        check_bits_invalid},
    RuleDefinition{{"DLP-DTYPE-LANES-ZERO", "dtype", "Dtype with 0 lanes", Severity::warning,
                    kFirstRelease, std::nullopt, "dlpack.h 1.3, DLDataType::lanes", "heuristic",
                    "Number of lanes in the type, used for vector types.",
                    "No sentence forbids 0, but a type of 0 lanes holds no data; scalars have 1."},
                   Scope::body,
                   check_lanes_zero},
    RuleDefinition{
        {"DLP-DTYPE-LANES-VECTOR", "dtype", "Vector dtype (lanes > 1)", Severity::warning,
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
