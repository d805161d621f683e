// Device family: DLDevice's type and id.
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

void check_type_unknown(const RuleContext& context, Reporter& report) {
  if (dlpack::find_device_type(context.tensor.device_type) != nullptr) return;
  report("dl_tensor.device.device_type",
         known_by_no_generation("device_type", context.tensor.device_type, "DLDeviceType"));
}

void check_type_version(const RuleContext& context, Reporter& report) {
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(context.tensor.device_type);
  if (known == nullptr || known_by_release(known->known_since, context.release)) return;
  report("dl_tensor.device.device_type",
         newer_than_declared(known->name, known->value, known->known_since, context.release));
}

void check_type_unreleased(const RuleContext& context, Reporter& report) {
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(context.tensor.device_type);
  if (known == nullptr || dlpack::generation_info(known->known_since).released) return;
  report("dl_tensor.device.device_type", known_only_by_main(known->name, known->value));
}

void check_id_negative(const RuleContext& context, Reporter& report) {
  if (context.tensor.device_id >= 0) return;
  report(
      "dl_tensor.device.device_id",
      fmt::format("device_id is {}; device ids are indices, 0 or more", context.tensor.device_id));
}

void check_id_host(const RuleContext& context, Reporter& report) {
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(context.tensor.device_type);
  if (known == nullptr || !known->host_memory || context.tensor.device_id <= 0) return;
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} for {}, host memory whose device_id is 0 by convention; "
                     "export device_id 0",
                     context.tensor.device_id, known->name));
}

// Runtime facts checked for every device type, not only kDLOneAPI.
void check_type_runtime_memory(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(tensor.device_type);
  if (known == nullptr || !known->host_memory || !tensor.runtime ||
      tensor.runtime->usm_kind != facts::UsmKind::device) {
    return;
  }
  report("dl_tensor.device.device_type",
         fmt::format("{} says the host can read the data, but the runtime reports device "
                     "memory (USM device); a host consumer would read device memory. Export it "
                     "with the device's own type",
                     known->name));
}

// The owner named by device_id is judged by DLP-DEVICE-ID-NOT-OWNER unless a
// family of the device type judges it (kDLOneAPI's root device index, the
// CUDA driver's ordinal), so one wrong index gives one error.
bool owner_judged_elsewhere(const facts::TensorFacts& tensor) {
  return tensor.device_type == dlpack::kDLOneAPI ||
         (tensor.runtime && tensor.runtime->cuda_ordinal);
}

void check_id_owner(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(tensor.device_type);
  if (known == nullptr || known->host_memory || owner_judged_elsewhere(tensor) || !tensor.runtime ||
      !tensor.runtime->owner_root_index || tensor.device_id < 0 ||
      tensor.runtime->usm_kind == facts::UsmKind::host ||
      tensor.device_id == *tensor.runtime->owner_root_index) {
    return;
  }
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} but the runtime recorded device {} as the owner; export "
                     "the owning device's index",
                     tensor.device_id, *tensor.runtime->owner_root_index));
}

constexpr std::string_view kDeviceIdReference = "dlpack.h 1.3, DLDevice::device_id";
constexpr std::string_view kDeviceIndex = "The device index.";

constexpr std::array kDeviceRules{
    RuleDefinition{
        {"DLP-DEVICE-TYPE-UNKNOWN", "device", "Device type no header defines", Severity::error,
         kFirstRelease, dlpack::kModelRelease, "dlpack.h 1.3, DLDevice::device_type", "definition",
         "The device type used in the device.",
         "device_type is a DLDeviceType: a value that no dlpack.h defines (released 0.6 to 1.3, "
         "nor main after 1.3, whose kDLTPU 19, kDLTPUHost 20 and kDLAscend 21 the tool knows) "
         "lies outside that enum and names no device, so a consumer cannot tell where the data "
         "is. Tensors declaring a minor above 1.3 are not judged: a later release may define "
         "the value."},
        Scope::body,
        check_type_unknown},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-VERSION", "device", "Device type newer than the declared version",
         Severity::error, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLPackVersion", "definition",
         "A change in minor version indicates that we have added new code, such as a new device "
         "type, but the ABI is kept the same.",
         "A tensor is judged by its declared version: a device type first defined by a later "
         "dlpack.h (kDLOneAPI 0.7, kDLMAIA 1.0, kDLTrn 1.2) lies outside the DLDeviceType of the "
         "version it declares, and a consumer of that version cannot place the data. Codes are "
         "known by header generation: main after 1.3 still declares 1.3, so its kDLTPU, "
         "kDLTPUHost and kDLAscend are in place in a tensor declaring 1.3."},
        Scope::body,
        check_type_version},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-UNRELEASED", "device", "Device type only main's header defines",
         Severity::info, dlpack::kModelRelease, dlpack::kModelRelease,
         "dlpack.h 1.3, DLPackVersion", "heuristic", kMinorMismatchSentence,
         "kDLTPU, kDLTPUHost (dlpack#188) and kDLAscend (dlpack#189) were merged after the 1.3 "
         "tag without a minor bump: a producer built against main declares 1.3 and is not "
         "wrong to use them, but a consumer built against the released 1.3 header does not "
         "know them and may refuse the tensor. Worth knowing only."},
        Scope::body,
        check_type_unreleased},
    RuleDefinition{{"DLP-DEVICE-ID-NEGATIVE", "device", "Negative device_id", Severity::error,
                    kFirstRelease, std::nullopt, kDeviceIdReference, "definition", kDeviceIndex,
                    "device_id is an index, 0 or more: a negative value lies outside that domain "
                    "and names no device."},
                   Scope::body,
                   check_id_negative},
    RuleDefinition{
        {"DLP-DEVICE-ID-HOST-NONZERO", "device", "Non-zero device_id for host memory",
         Severity::warning, kFirstRelease, std::nullopt, kDeviceIdReference, "convention",
         "For vanilla CPU memory, pinned memory, or managed memory, this is set to 0.",
         "The header states the practice without a must, and the host reads the memory alike "
         "whatever the index; but consumers that index devices by device_id misplace the "
         "tensor."},
        Scope::body,
        check_id_host},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-NOT-RUNTIME-MEMORY", "device",
         "Device-only memory labelled with a host device type", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLDeviceType", "definition",
         "Pinned CUDA CPU memory by cudaMallocHost",
         "Each host device type is defined by the memory it names (kDLCPU the CPU's, "
         "kDLCUDAHost and kDLROCMHost pinned CPU memory, kDLCUDAManaged memory of "
         "cudaMallocManaged), memory the host reads. The owning runtime says this pointer is "
         "device memory (USM device), outside that definition: a host consumer would read "
         "device memory."},
        Scope::body,
        check_type_runtime_memory},
    RuleDefinition{
        {"DLP-DEVICE-ID-NOT-OWNER", "device", "device_id contradicts the owning device",
         Severity::error, kFirstRelease, std::nullopt, kDeviceIdReference, "definition",
         kDeviceIndex,
         "device_id is the index of the device that holds the memory: the owner the runtime "
         "recorded. An index naming another device sends a consumer to the wrong one. kDLOneAPI "
         "tensors and tensors with the CUDA driver's ordinal have rules of their own."},
        Scope::body,
        check_id_owner},
};

}  // namespace

std::span<const RuleDefinition> device_rules() {
  return kDeviceRules;
}

}  // namespace dlpack_usm::rules
