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

constexpr std::array kRules{
    RuleDefinition{
        {"DLP-DEVICE-TYPE-UNKNOWN", "device", "Device type no release defines", Severity::error,
         kFirstRelease, dl::kModelRelease, "dlpack.h 1.3 (DLDeviceType)",
         "device_type is \"the device type used in the device\", one of the "
         "DLDeviceType values."},
        Scope::body,
        check_type_unknown},
    RuleDefinition{
        {"DLP-DEVICE-TYPE-VERSION", "device", "Device type newer than the declared version",
         Severity::error, kFirstRelease, std::nullopt, "dlpack.h 1.0 (DLPackVersion)",
         "Minor version updates indicate the addition of enumeration values; a tensor "
         "may only use the device types of the release it declares (kDLOneAPI 0.7, "
         "kDLMAIA 1.0, kDLTrn 1.2)."},
        Scope::body,
        check_type_version},
    RuleDefinition{{"DLP-DEVICE-ID-NEGATIVE", "device", "Negative device_id", Severity::error,
                    kFirstRelease, std::nullopt, "dlpack.h 1.3 (DLDevice::device_id)",
                    "device_id is \"the device index\"; an index is never negative."},
                   Scope::body,
                   check_id_negative},
    RuleDefinition{
        {"DLP-DEVICE-ID-HOST-NONZERO", "device", "Non-zero device_id for host memory",
         Severity::warning, kFirstRelease, std::nullopt, "dlpack.h 1.3 (DLDevice::device_id)",
         "\"For vanilla CPU memory, pinned memory, or managed memory, this is set to "
         "0.\""},
        Scope::body,
        check_id_host},
};

}  // namespace

std::span<const RuleDefinition> device_rules() {
  return kRules;
}

}  // namespace dlpack_usm::rules
