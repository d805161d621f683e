// oneAPI family: the kDLOneAPI protocol (dpctl's documentation of the export
// and import protocol; Intel Extension for PyTorch's DLPack page). These rules need what the owning
// runtime says about the pointer (TensorFacts::runtime); without it only the info rule fires.
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

const facts::RuntimeFacts* oneapi_runtime(const RuleContext& context) {
  if (context.tensor.device_type != dlpack::kDLOneAPI || !context.tensor.runtime) return nullptr;
  return &*context.tensor.runtime;
}

// A device_id the import protocol can look up: not negative (the device
// family reports that) and below the root device count where it is known
// (DLP-ONEAPI-DEVICE-ID-RANGE reports the rest).
bool device_id_in_range(const facts::TensorFacts& tensor, const facts::RuntimeFacts& runtime) {
  if (tensor.device_id < 0) return false;
  return !runtime.root_device_count || tensor.device_id < *runtime.root_device_count;
}

void check_no_runtime(const RuleContext& context, Reporter& report) {
  if (context.tensor.device_type != dlpack::kDLOneAPI || context.tensor.runtime) return;
  report("runtime",
         "kDLOneAPI tensor without runtime facts: USM kind, owning device and context were not "
         "checked; check the live tensor or record a \"runtime\" section in the capsule file");
}

void check_context_not_default(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || !runtime->default_context || *runtime->default_context) return;
  report("runtime.default_context",
         "the allocation is bound to a context other than the default context of its "
         "platform; the importer looks the pointer up in the default context and will not find "
         "it. Allocate in the platform's default context (or copy into it) before export");
}

void check_usm_unknown(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || runtime->usm_kind != facts::UsmKind::unknown) return;
  // A known non-default context explains the unknown kind; that rule reports it.
  if (runtime->default_context == false) return;
  // A size-0 tensor with NULL data (what the header recommends) has no
  // pointer to look up.
  if (context.tensor.data == 0 && known_empty(context)) return;
  report("runtime.usm_kind",
         fmt::format("data {:#x} is not a USM pointer of the default context of device_id {}'s "
                     "platform (kind unknown); export only USM allocations made in that context",
                     context.tensor.data, context.tensor.device_id));
}

void check_device_id_range(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || !runtime->root_device_count || context.tensor.device_id < 0 ||
      context.tensor.device_id < *runtime->root_device_count) {
    return;
  }
  report("dl_tensor.device.device_id",
         fmt::format("device_id {} is out of range: there are {} root device(s), so the "
                     "importer's lookup in sycl::device::get_devices() fails; export the index "
                     "of the allocation's root device",
                     context.tensor.device_id, *runtime->root_device_count));
}

// Host USM belongs to no device: whatever owner a runtime or a capsule file
// records for it (SYCL names the context's first device), there is none to
// compare device_id with.
bool has_owning_device(const facts::RuntimeFacts& runtime) {
  return runtime.owner_root_index && runtime.usm_kind != facts::UsmKind::host;
}

void check_device_id_root(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || !has_owning_device(*runtime) || runtime->owner_sub_device_index ||
      !device_id_in_range(context.tensor, *runtime) ||
      context.tensor.device_id == *runtime->owner_root_index) {
    return;
  }
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} but the allocation belongs to root device {}{}; export "
                     "the index of the owning root device in sycl::device::get_devices()",
                     context.tensor.device_id, *runtime->owner_root_index,
                     runtime->owner_device_name ? " (" + *runtime->owner_device_name + ")" : ""));
}

void check_device_id_sub_device(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || !has_owning_device(*runtime) || !runtime->owner_sub_device_index ||
      !device_id_in_range(context.tensor, *runtime) ||
      context.tensor.device_id == *runtime->owner_root_index) {
    return;
  }
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} but the allocation was made on sub-device {} of root "
                     "device {}{}; the protocol puts the parent root device's index there, "
                     "{}",
                     context.tensor.device_id, *runtime->owner_sub_device_index,
                     *runtime->owner_root_index,
                     runtime->owner_device_name ? " (" + *runtime->owner_device_name + ")" : "",
                     *runtime->owner_root_index));
}

void check_usm_not_device(const RuleContext& context, Reporter& report) {
  const facts::RuntimeFacts* runtime = oneapi_runtime(context);
  if (runtime == nullptr || !runtime->usm_kind ||
      (*runtime->usm_kind != facts::UsmKind::host &&
       *runtime->usm_kind != facts::UsmKind::shared)) {
    return;
  }
  report("runtime.usm_kind",
         fmt::format("USM kind is {}: valid for dpctl/dpnp, but Intel Extension for PyTorch "
                     "accepts only usm::device allocations",
                     facts::to_string(*runtime->usm_kind)));
}

constexpr dlpack::Release kOneApiSince{0, 7};

constexpr std::string_view kDpctlDlpackPage =
    "dpctl documentation, DLPack exchange of USM allocated arrays "
    "(https://intelpython.github.io/dpctl/latest/user_guides/dlpack.html)";
constexpr std::string_view kIpexDlpackPage =
    "Intel Extension for PyTorch documentation, DLPack Solution "
    "(https://intel.github.io/intel-extension-for-pytorch/xpu/latest/tutorials/features/"
    "DLPack.html)";
constexpr std::string_view kCanNotExport =
    "Can not export USM allocations not bound to default platform context.";
constexpr std::string_view kIpexRootDevice =
    "If the device has parent device, we will find its parent device index enumerated in "
    "sycl::device::get_devices() then put to device_id.";
constexpr std::string_view kIpexSyclDeviceId =
    "The device_id in DLDevice is one of the SYCL runtime device ids, which may be different "
    "from the actual framework device in use.";
constexpr std::string_view kIpexAllocationDevice =
    "When producing a DLPack capsule, DPC++ runtime will get the device where memory "
    "allocation was original made.";

constexpr std::array kOneApiRules{
    RuleDefinition{
        {"DLP-ONEAPI-NO-RUNTIME", "oneapi", "kDLOneAPI tensor without runtime facts",
         Severity::info, kOneApiSince, std::nullopt, "dlpack.h 1.3, DLDeviceType::kDLOneAPI",
         "required",
         "Call to oneAPI runtime is required to determine the device type, the USM allocation "
         "type and the sycl context it is bound to.",
         "Without what the runtime says about the pointer, the kDLOneAPI rules cannot run."},
        Scope::body,
        check_no_runtime},
    RuleDefinition{
        {"DLP-ONEAPI-CONTEXT-NOT-DEFAULT", "oneapi",
         "Allocation not bound to the platform's default context", Severity::error, kOneApiSince,
         std::nullopt, kDpctlDlpackPage, "can not", kCanNotExport,
         "The export protocol throws this error; the importer looks the pointer up in the "
         "default context and would not find it."},
        Scope::body,
        check_context_not_default},
    RuleDefinition{
        {"DLP-ONEAPI-USM-UNKNOWN", "oneapi", "Pointer unknown to the default context",
         Severity::error, kOneApiSince, std::nullopt, kDpctlDlpackPage, "can not", kCanNotExport,
         "A pointer the default context of the device's platform does not know is not bound to "
         "it (another context, or no USM allocation at all): the export protocol can not export "
         "it and the import protocol rejects it. A size-0 tensor with NULL data has no pointer "
         "to look up."},
        Scope::body,
        check_usm_unknown},
    RuleDefinition{{"DLP-ONEAPI-DEVICE-ID-RANGE", "oneapi",
                    "device_id beyond the root device count", Severity::error, kOneApiSince,
                    std::nullopt, kIpexDlpackPage, "definition", kIpexSyclDeviceId,
                    "A kDLOneAPI device_id is a SYCL runtime device id, the position of a root "
                    "device in sycl::device::get_devices() (the import protocol takes "
                    "get_devices().at(device_id)): an index at or past the number of root "
                    "devices lies outside that list and names no device."},
                   Scope::body,
                   check_device_id_range},
    RuleDefinition{
        {"DLP-ONEAPI-DEVICE-ID-ROOT", "oneapi", "device_id is not the owning root device's index",
         Severity::error, kOneApiSince, std::nullopt, kIpexDlpackPage, "definition",
         kIpexAllocationDevice,
         "A kDLOneAPI device_id is the position in sycl::device::get_devices() of the "
         "device where the allocation was made; another index names a device that "
         "does not own the memory, and the importer looks the pointer up there. Host "
         "USM belongs to no device, so it has no owner to compare with."},
        Scope::body,
        check_device_id_root},
    RuleDefinition{
        {"DLP-ONEAPI-DEVICE-ID-SUB-DEVICE", "oneapi",
         "Sub-device allocation does not report its parent root device", Severity::error,
         kOneApiSince, std::nullopt, kIpexDlpackPage, "definition", kIpexRootDevice,
         "For an allocation made on a sub-device, device_id is defined as the index of its "
         "parent root device in sycl::device::get_devices(); the sub-device's own position (or "
         "any other index) names another device."},
        Scope::body,
        check_device_id_sub_device},
    RuleDefinition{
        {"DLP-ONEAPI-USM-NOT-DEVICE", "oneapi", "Host or shared USM (IPEX accepts device only)",
         Severity::info, kOneApiSince, std::nullopt, kIpexDlpackPage, "heuristic",
         "sycl::usm::device is the only supported type.",
         "Worth knowing: dpctl accepts every USM kind, Intel Extension for PyTorch only device."},
        Scope::body,
        check_usm_not_device},
};

}  // namespace

std::span<const RuleDefinition> oneapi_rules() {
  return kOneApiRules;
}

}  // namespace dlpack_usm::rules
