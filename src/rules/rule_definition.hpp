// How a rule family defines its rules: the public RuleInfo plus the check
// function and whether it may run on a tensor whose body was not read.
// Internal to src/rules/.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "facts/derived.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::rules {

// Every release the model knows is at or after this one; rules that have
// held since DLPack's first tagged release start here.
inline constexpr dl::Release kFirstRelease{0, 1};

// The first release with DLPack's C exchange API (DLPackExchangeAPI).
inline constexpr dl::Release kExchangeApiSince{1, 2};

// DLPackVersion's sentence on a minor mismatch, which the rules on codes
// only main's header defines quote.
inline constexpr std::string_view kMinorMismatchSentence =
    "In the case of a minor version mismatch, the tensor can be safely used as long as the "
    "consumer knows how to interpret all fields.";

// The reference that the shape and behaviour families cite for strides.
inline constexpr std::string_view kStridesReference = "dlpack.h 1.3, DLTensor::strides";

// What a check sees: the tensor, the facts derived from it (computed once
// per evaluation) and the release it is judged by.
struct RuleContext {
  const facts::TensorFacts& tensor;
  const facts::DerivedFacts& derived;
  dl::Release release;
};

// Collects the findings of one rule; the rule's id and severity are filled
// in, so a check only says where and what.
class Reporter {
 public:
  Reporter(const RuleInfo& rule, std::vector<Finding>& findings)
      : rule_(rule), findings_(findings) {}
  void operator()(std::string field, std::string message) {
    findings_.push_back(
        Finding{std::string(rule_.id), rule_.severity, std::move(field), std::move(message)});
  }

 private:
  const RuleInfo& rule_;
  std::vector<Finding>& findings_;
};

using CheckFn = void (*)(const RuleContext& context, Reporter& report);

// Header rules read only what every major version keeps in place (version,
// manager_ctx, deleter), so they still run when the body was not read.
enum class Scope { header, body };

struct RuleDefinition {
  RuleInfo info;
  Scope scope;
  CheckFn check;
};

// One list per family, each defined in <family>_rules.cpp; catalog.cpp
// joins them in this order.
std::span<const RuleDefinition> version_rules();
std::span<const RuleDefinition> flags_rules();
std::span<const RuleDefinition> dtype_rules();
std::span<const RuleDefinition> shape_rules();
std::span<const RuleDefinition> addressing_rules();
std::span<const RuleDefinition> alignment_rules();
std::span<const RuleDefinition> device_rules();
std::span<const RuleDefinition> deleter_rules();
std::span<const RuleDefinition> oneapi_rules();
std::span<const RuleDefinition> cuda_rules();
std::span<const RuleDefinition> runtime_rules();
std::span<const RuleDefinition> behaviour_rules();
// Defined in producer_behaviour_rules.cpp; joined after behaviour_rules().
std::span<const RuleDefinition> producer_behaviour_rules();
// The verdict model's rules on libraries (library_rules.cpp), joined next.
std::span<const RuleDefinition> library_rules();
// The rules on a DLPackExchangeAPI table (exchange_api_rules.cpp), joined
// next; they judge facts::ExchangeApiFacts, not tensors.
std::span<const RuleDefinition> exchange_api_rules();
// The Python protocol's rules (python_rules.cpp), joined last.
std::span<const RuleDefinition> python_rules();

// Shared by several families (rule_helpers.cpp).

// The tensor's shape when it was read and is usable (ndim within limits,
// shape non-NULL or ndim 0); an empty shape for ndim 0; NULL otherwise.
const std::vector<std::int64_t>* readable_shape(const facts::TensorFacts& tensor);

// Whether byte_offset is not a multiple of the element size, for dtypes
// whose elements are whole bytes. The alignment family defers to the
// addressing rule in that case, so one defect gives one finding.
bool byte_offset_misaligned(const RuleContext& context);

// The device type's data pointer is a handle (cl_mem, VkBuffer,
// id<MTLBuffer>), not an address, so address arithmetic and alignment say
// nothing about it (dl::data_is_handle()).
bool data_is_handle(const facts::TensorFacts& tensor);

// What the header-generation rules of the device and dtype families say of a
// known enumerator `name` (value `value`) that the first header to define is
// `since`: whether a tensor judged by `release` may carry it, and the
// message for one that may not.
bool known_by_release(dl::Generation since, dl::Release release);
std::string newer_than_declared(std::string_view name, int value, dl::Generation since,
                                dl::Release release);
// The message of an enumerator no generation knows: "device_type 42 is not
// a DLDeviceType of any dlpack.h ...".
std::string known_by_no_generation(std::string_view field, int value, std::string_view type_name);
// The info of an enumerator only main's header knows (no release yet).
std::string known_only_by_main(std::string_view name, int value);

// The small negative stride `stride` stands for when it is what dividing a
// negative byte stride by `element_bytes` as an unsigned 64-bit number gives
// (cupy 14.2 exports these); nullopt for any other stride.
std::optional<std::int64_t> unsigned_division_stride(std::int64_t stride,
                                                     std::uint64_t element_bytes);

// True when the tensor is known to hold no elements.
bool known_empty(const RuleContext& context);

// The check of a behaviour rule: nothing to see in the facts of one tensor,
// as the plugin cases report these rules themselves.
void judged_by_plugin_cases(const RuleContext& context, Reporter& reporter);

}  // namespace dlpack_usm::rules
