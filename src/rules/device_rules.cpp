// Device family: DLDevice's type and id.
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

void check_type_unknown(const RuleContext& context, Reporter& report) {
  if (dl::find_device_type(context.tensor.device_type) != nullptr) return;
  report("dl_tensor.device.device_type",
         fmt::format("device_type {} is not a DLDeviceType of any DLPack release up to {}; use "
                     "one of the kDL* device types",
                     context.tensor.device_type, dl::to_string(dl::kModelRelease)));
}

void check_type_version(const RuleContext& context, Reporter& report) {
  const dl::DeviceTypeName* known = dl::find_device_type(context.tensor.device_type);
  if (known == nullptr || known->since <= context.release) return;
  report("dl_tensor.device.device_type",
         fmt::format("{} ({}) was added in DLPack {}, but the tensor declares {}; declare "
                     "version {} or later",
                     known->name, known->value, dl::to_string(known->since),
                     dl::to_string(context.release), dl::to_string(known->since)));
}

void check_id_negative(const RuleContext& context, Reporter& report) {
  if (context.tensor.device_id >= 0) return;
  report(
      "dl_tensor.device.device_id",
      fmt::format("device_id is {}; device ids are indices, 0 or more", context.tensor.device_id));
}

void check_id_host(const RuleContext& context, Reporter& report) {
  const dl::DeviceTypeName* known = dl::find_device_type(context.tensor.device_type);
  if (known == nullptr || !known->host_memory || context.tensor.device_id <= 0) return;
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} for {}, host memory whose device_id is 0 by convention; "
                     "export device_id 0",
                     context.tensor.device_id, known->name));
}

// Runtime facts checked for every device type, not only kDLOneAPI.
void check_type_runtime_memory(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const dl::DeviceTypeName* known = dl::find_device_type(tensor.device_type);
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

void check_id_owner(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const dl::DeviceTypeName* known = dl::find_device_type(tensor.device_type);
  if (known == nullptr || known->host_memory || tensor.device_type == dl::kDLOneAPI ||
      !tensor.runtime || !tensor.runtime->owner_root_index || tensor.device_id < 0 ||
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
constexpr std::string_view kEnumAddition =
    "Minor version updates indicate the addition of "
    "enumeration values.";

constexpr std::array kDeviceRules{
    RuleDefinition{
        {"DLP-DEVICE-TYPE-UNKNOWN", "device", "Device type no release defines", Severity::warning,
         kFirstRelease, dl::kModelRelease, "dlpack.h 1.3, DLDevice::device_type", "heuristic",
         "The device type used in the device.",
         "A value no release up to the tool's defines names no device a consumer knows."},
        Scope::body,
        check_type_unknown},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-VERSION", "device", "Device type newer than the declared version",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLPackVersion", "heuristic",
         kEnumAddition,
         "A tensor is judged by its declared version: a device type added later (kDLOneAPI "
         "0.7, kDLMAIA 1.0, kDLTrn 1.2) is unknown to a consumer of that release."},
        Scope::body,
        check_type_version},
    RuleDefinition{{"DLP-DEVICE-ID-NEGATIVE", "device", "Negative device_id", Severity::warning,
                    kFirstRelease, std::nullopt, kDeviceIdReference, "heuristic",
                    "The device index.", "An index is never negative."},
                   Scope::body,
                   check_id_negative},
    RuleDefinition{
        {"DLP-DEVICE-ID-HOST-NONZERO", "device", "Non-zero device_id for host memory",
         Severity::warning, kFirstRelease, std::nullopt, kDeviceIdReference, "heuristic",
         "For vanilla CPU memory, pinned memory, or managed memory, this is set to 0.",
         "The header states the convention without a must; consumers that index devices by "
         "device_id misplace the tensor."},
        Scope::body,
        check_id_host},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-NOT-RUNTIME-MEMORY", "device",
         "Device-only memory labelled with a host device type", Severity::warning, kFirstRelease,
         std::nullopt, "dlpack.h 1.3, DLDeviceType", "heuristic",
         "Pinned CUDA CPU memory by cudaMallocHost",
         "The owning runtime says the pointer is device memory (USM device), which the host "
         "cannot read, but the device type (kDLCPU, kDLCUDAHost, kDLROCMHost, kDLCUDAManaged) "
         "promises memory the host reads."},
        Scope::body,
        check_type_runtime_memory},
    RuleDefinition{
        {"DLP-DEVICE-ID-NOT-OWNER", "device", "device_id contradicts the owning device",
         Severity::warning, kFirstRelease, std::nullopt, kDeviceIdReference, "heuristic",
         "The device index.",
         "For device types other than kDLOneAPI (whose own rules apply), the owner the runtime "
         "recorded is the device the index names."},
        Scope::body,
        check_id_owner},
};

}  // namespace

std::span<const RuleDefinition> device_rules() {
  return kDeviceRules;
}

}  // namespace dlpack_usm::rules
