#include "exchange/import_tensor.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "exchange/live_facts.hpp"
#include "exchange/rule_gate.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/derived.hpp"

namespace dlpack_usm::exchange {

ImportedView import_tensor(runtime::Runtime& runtime, CapsuleOwner capsule) {
  if (!capsule) fail_usage("cannot import a NULL tensor");

  // dlpack.h: a consumer that does not know the major version calls the
  // deleter and reads nothing else.
  if (capsule.is_versioned() && capsule.versioned()->version.major != dl::kModelMajor) {
    std::uint32_t major = capsule.versioned()->version.major;
    capsule.reset();
    refuse(fmt::format("import refused: major version {} is not {}; the deleter was called and "
                       "nothing else was read (rule {})",
                       major, dl::kModelMajor, rule_ids::kVersionMajor),
           "ask the producer for max_version 1.x", {std::string(rule_ids::kVersionMajor)});
  }

  const dl::DLTensor& tensor = *capsule.dl_tensor();
  if (tensor.device.device_type != dl::kDLOneAPI) {
    refuse(fmt::format("import refused: device_type is {}, and this importer takes kDLOneAPI",
                       dl::device_type_display(tensor.device.device_type)));
  }

  // Get the root device from device_id.
  const runtime::Inventory& inventory = runtime.inventory();
  std::int32_t device_id = tensor.device.device_id;
  if (device_id < 0 || device_id >= inventory.root_device_count()) {
    refuse(fmt::format("import refused: device_id {} names no root device; this process sees {} "
                       "(rule {})",
                       device_id, inventory.root_device_count(),
                       device_id < 0 ? rule_ids::kDeviceIdNegative : rule_ids::kDeviceIdRange),
           "'dlpack-usm list-devices' shows the kDLOneAPI device ids of this machine",
           {std::string(device_id < 0 ? rule_ids::kDeviceIdNegative : rule_ids::kDeviceIdRange)});
  }
  ImportedPlacement placement;
  placement.root_device = runtime::DeviceRef{device_id, std::nullopt};
  const runtime::PlatformInfo* platform = inventory.platform_of(placement.root_device);
  if (platform == nullptr) fail_environment("the root device has no platform");

  placement.context = runtime.default_context(platform->index);
  facts::TensorFacts facts = read_capsule_facts(capsule, fmt::format("live:import:{}", device_id));
  // A size-0 tensor with NULL data (what dlpack.h recommends) has no pointer
  // to look up: NULL is unknown to every context, and nothing will be read.
  const std::optional<std::uint64_t> count = facts::derive(facts).element_count;
  if (tensor.data != nullptr || !count || *count != 0) {
    // Look the pointer up in that platform's default context.
    runtime::PointerInfo info = runtime.query(tensor.data, placement.context);
    if (info.kind == facts::UsmKind::unknown) {
      refuse(fmt::format("import refused: data {} is not bound to the default platform context "
                         "of device_id {} (USM kind unknown; rule {})",
                         tensor.data, device_id, rule_ids::kUsmUnknown),
             "the producer must allocate in the default context of that device's platform",
             {std::string(rule_ids::kUsmUnknown)});
    }
    placement.usm_kind = info.kind;
    // The device where the data was allocated (none for host allocations).
    placement.owner_device = info.owner;
    // The rule engine judges the live facts: device_id against the owner's
    // root, the byte extent against the allocation, and every field.
    facts.runtime = live_runtime_facts(runtime, info, placement.context);
  }
  std::vector<rules::Finding> findings = enforce_rules(facts, "import");

  return ImportedView(runtime, std::move(capsule), placement, std::move(facts),
                      std::move(findings));
}

ImportedView import_tensor(runtime::Runtime& runtime, dl::DLManagedTensorVersioned* tensor) {
  return import_tensor(runtime, CapsuleOwner(tensor));
}

ImportedView import_tensor(runtime::Runtime& runtime, dl::DLManagedTensor* tensor) {
  return import_tensor(runtime, CapsuleOwner(tensor));
}

}  // namespace dlpack_usm::exchange
