// Shape family: ndim, shape and strides as declared, before any address is
// computed from them.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// ndim in (0, limit]: the dimensions the reader could read.
bool has_readable_dims(const facts::TensorFacts& tensor) {
  return tensor.ndim > 0 && tensor.ndim <= facts::kMaxReadableDims;
}

bool strides_null(const RuleContext& context) {
  return has_readable_dims(context.tensor) && !context.tensor.strides;
}

void check_ndim_negative(const RuleContext& context, Reporter& report) {
  if (context.tensor.ndim >= 0) return;
  report("dl_tensor.ndim",
         fmt::format("ndim is {}; a tensor has 0 or more dimensions", context.tensor.ndim));
}

void check_ndim_limit(const RuleContext& context, Reporter& report) {
  if (context.tensor.ndim <= facts::kMaxReadableDims) return;
  report("dl_tensor.ndim",
         fmt::format("ndim is {}, more than the {} dimensions this tool reads; shape and strides "
                     "were not read. Check that ndim is set from the real rank",
                     context.tensor.ndim, facts::kMaxReadableDims));
}

void check_shape_null(const RuleContext& context, Reporter& report) {
  if (!has_readable_dims(context.tensor) || context.tensor.shape) return;
  report("dl_tensor.shape",
         fmt::format("shape is NULL but ndim is {}; point shape at {} extents (only ndim 0 may "
                     "have a NULL shape)",
                     context.tensor.ndim, context.tensor.ndim));
}

void check_shape_negative(const RuleContext& context, Reporter& report) {
  const std::vector<std::int64_t>* shape = readable_shape(context.tensor);
  if (shape == nullptr) return;
  for (std::size_t i = 0; i < shape->size(); ++i) {
    if ((*shape)[i] >= 0) continue;
    report(fmt::format("dl_tensor.shape[{}]", i),
           fmt::format("extent {} is negative; extents count elements and are 0 or more",
                       (*shape)[i]));
  }
}

void check_strides_null_row_major(const RuleContext& context, Reporter& report) {
  if (!strides_null(context)) return;
  report("dl_tensor.strides",
         fmt::format("strides is NULL: before DLPack 1.2 this means compact row-major; the "
                     "tensor declares {}. From 1.2 on strides must be given",
                     dlpack::to_string(context.release)));
}

void check_strides_null(const RuleContext& context, Reporter& report) {
  if (!strides_null(context)) return;
  report("dl_tensor.strides",
         fmt::format("strides is NULL with ndim {} in a {} tensor; from DLPack 1.2 a producer "
                     "must fill strides (row-major: the suffix products of the shape)",
                     context.tensor.ndim, dlpack::to_string(context.release)));
}

void check_strides_zero(const RuleContext& context, Reporter& report) {
  const std::vector<std::int64_t>* shape = readable_shape(context.tensor);
  const auto& strides = context.tensor.strides;
  if (shape == nullptr || !strides || strides->size() != shape->size()) return;
  // A size-0 tensor has no elements that could overlap.
  if (std::find(shape->begin(), shape->end(), 0) != shape->end()) return;
  for (std::size_t i = 0; i < shape->size(); ++i) {
    if ((*strides)[i] != 0 || (*shape)[i] <= 1) continue;
    report(fmt::format("dl_tensor.strides[{}]", i),
           fmt::format("stride 0 on a dimension of extent {}: its {} elements share one "
                       "address (a broadcast view); a consumer that writes or assumes distinct "
                       "elements will misbehave. Materialise the tensor or set READ_ONLY",
                       (*shape)[i], (*shape)[i]));
  }
}

void check_strides_unsigned_division(const RuleContext& context, Reporter& report) {
  const auto& strides = context.tensor.strides;
  if (!strides) return;
  for (std::size_t i = 0; i < strides->size(); ++i) {
    std::optional<std::int64_t> meant =
        unsigned_division_stride((*strides)[i], context.derived.element_bytes);
    if (!meant) continue;
    report(fmt::format("dl_tensor.strides[{}]", i),
           fmt::format("stride {} is a negative byte stride divided by the element size {} as an "
                       "unsigned 64-bit number; the stride meant is {}. Divide the byte stride "
                       "as a signed number",
                       (*strides)[i], context.derived.element_bytes, *meant));
  }
}

constexpr std::string_view kShapeReference = "dlpack.h 1.3, DLTensor::shape";

constexpr std::array kShapeRules{
    RuleDefinition{
        {"DLP-NDIM-NEGATIVE", "shape", "Negative ndim", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLTensor::ndim", "definition", "Number of dimensions",
         "ndim is a number of dimensions, 0 or more: a negative count lies outside that domain "
         "and describes no tensor."},
        Scope::body,
        check_ndim_negative},
    RuleDefinition{
        {"DLP-NDIM-LIMIT", "shape", "ndim beyond what this tool reads (tool limit)", Severity::info,
         kFirstRelease, std::nullopt, "dlpack-usm facts reader", "heuristic", "",
         "A limit of this tool, not of DLPack: the reader copies at most 1024 "
         "dimensions so that an absurd ndim cannot make it read unbounded producer "
         "memory; such a tensor is not checked further."},
        Scope::body,
        check_ndim_limit},
    RuleDefinition{
        {"DLP-SHAPE-NULL", "shape", "NULL shape with ndim > 0", Severity::error, kFirstRelease,
         std::nullopt, kShapeReference, "definition", "The shape of the tensor",
         "shape is the tensor's shape, ndim extents; only a tensor of ndim 0 may "
         "leave it NULL (\"When ndim == 0, shape can be set to NULL.\"). With ndim > "
         "0 a NULL shape holds none of the extents the definition asks for."},
        Scope::body,
        check_shape_null},
    RuleDefinition{
        {"DLP-SHAPE-NEGATIVE", "shape", "Negative extent", Severity::error, kFirstRelease,
         std::nullopt, kShapeReference, "definition", "The shape of the tensor",
         "Extents count the elements along each axis (GetDataSize multiplies them): an extent "
         "below 0 lies outside the domain of a shape."},
        Scope::body,
        check_shape_negative},
    RuleDefinition{{"DLP-STRIDES-NULL-ROW-MAJOR", "shape",
                    "NULL strides meaning compact row-major (before 1.2)", Severity::info,
                    kFirstRelease, dlpack::Release{1, 1}, "dlpack.h 0.6, DLTensor::strides", "can",
                    "can be NULL, indicating tensor is compact and row-majored.",
                    "Legal before DLPack 1.2; worth knowing because from 1.2 on it is not."},
                   Scope::body,
                   check_strides_null_row_major},
    RuleDefinition{
        {"DLP-STRIDES-NULL", "shape", "NULL strides with ndim > 0 (from 1.2)", Severity::error,
         dlpack::Release{1, 2}, std::nullopt, kStridesReference, "can not",
         "strides of the tensor (in number of elements, not bytes), can not be NULL if "
         "ndim != 0, must points to an array of ndim elements that specifies the "
         "strides, so consumer can always rely on strides[dim] being valid for 0 <= "
         "dim < ndim.",
         "Before 1.2 NULL meant compact row-major (DLP-STRIDES-NULL-ROW-MAJOR)."},
        Scope::body,
        check_strides_null},
    RuleDefinition{{"DLP-STRIDES-ZERO", "shape", "Zero stride on an extent > 1", Severity::info,
                    kFirstRelease, std::nullopt, kStridesReference, "heuristic",
                    "strides of the tensor (in number of elements, not bytes)",
                    "Legal, but a stride of 0 on an extent above 1 makes distinct indices alias "
                    "one element, which consumers that write or assume distinct elements "
                    "mishandle."},
                   Scope::body,
                   check_strides_zero},
    RuleDefinition{
        {"DLP-STRIDES-UNSIGNED-DIVISION", "shape", "Negative strides divided as unsigned numbers",
         Severity::error, kFirstRelease, std::nullopt, kStridesReference, "definition",
         "strides of the tensor (in number of elements, not bytes)",
         "Strides count elements: an element lies at data + byte_offset + stride * index * "
         "element size. A stride within a few element sizes of 2^64 / element size (such as "
         "4611686018427387898 for int32) makes that byte position wrap around 2^64, so it names "
         "no element of any allocation. It is what dividing a negative byte stride by the "
         "element size as an unsigned 64-bit number gives: the producer meant a small negative "
         "stride (cupy 14.2 exports these)."},
        Scope::body,
        check_strides_unsigned_division},
};

}  // namespace

std::span<const RuleDefinition> shape_rules() {
  return kShapeRules;
}

}  // namespace dlpack_usm::rules
