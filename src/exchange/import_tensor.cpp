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

namespace {

// dlpack.h: a consumer that does not know the major version calls the
// deleter and reads nothing else.
void refuse_unknown_major(CapsuleOwner& capsule) {
  if (!capsule.is_versioned() || capsule.versioned()->version.major == dlpack::kModelMajor) return;
  std::uint32_t major = capsule.versioned()->version.major;
  capsule.reset();
  refuse(fmt::format("import refused: major version {} is not {}; the deleter was called and "
                     "nothing else was read (rule {})",
                     major, dlpack::kModelMajor, rule_ids::kVersionMajor),
         "ask the producer for max_version 1.x", {std::string(rule_ids::kVersionMajor)});
}

// The root device a kDLOneAPI tensor's device_id names; refuses any other
// device type and an id outside this process's root devices.
std::int32_t root_device_id(const runtime::Inventory& inventory, const dlpack::DLTensor& tensor) {
  if (tensor.device.device_type != dlpack::kDLOneAPI) {
    refuse(fmt::format("import refused: device_type is {}, and this importer takes kDLOneAPI",
                       dlpack::device_type_display(tensor.device.device_type)));
  }
  std::int32_t device_id = tensor.device.device_id;
  if (device_id < 0 || device_id >= inventory.root_device_count()) {
    refuse(fmt::format("import refused: device_id {} names no root device; this process sees {} "
                       "(rule {})",
                       device_id, inventory.root_device_count(),
                       device_id < 0 ? rule_ids::kDeviceIdNegative : rule_ids::kDeviceIdRange),
           "'dlpack-usm list-devices' shows the kDLOneAPI device ids of this machine",
           {std::string(device_id < 0 ? rule_ids::kDeviceIdNegative : rule_ids::kDeviceIdRange)});
  }
  return device_id;
}

// Looks the data pointer up in the placement's context (the platform's
// default one): its USM kind, unknown being refused, and its owning device;
// the facts get what the runtime said, for the rule engine to judge.
void locate_data(runtime::Runtime& runtime, const dlpack::DLTensor& tensor,
                 ImportedPlacement& placement, facts::TensorFacts& facts) {
  runtime::PointerInfo info = runtime.query(tensor.data, placement.context);
  if (info.kind == facts::UsmKind::unknown) {
    refuse(fmt::format("import refused: data {} is not bound to the default platform context "
                       "of device_id {} (USM kind unknown; rule {})",
                       tensor.data, placement.root_device.root_index, rule_ids::kUsmUnknown),
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

}  // namespace

ImportedView import_tensor(runtime::Runtime& runtime, CapsuleOwner capsule) {
  if (!capsule) fail_usage("cannot import a NULL tensor");
  refuse_unknown_major(capsule);

  const dlpack::DLTensor& tensor = *capsule.dl_tensor();
  const runtime::Inventory& inventory = runtime.inventory();
  std::int32_t device_id = root_device_id(inventory, tensor);
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
    locate_data(runtime, tensor, placement, facts);
  }
  std::vector<rules::Finding> findings = enforce_rules(facts, "import");

  return ImportedView(runtime, std::move(capsule), placement, std::move(facts),
                      std::move(findings));
}

ImportedView import_tensor(runtime::Runtime& runtime, dlpack::DLManagedTensorVersioned* tensor) {
  return import_tensor(runtime, CapsuleOwner(tensor));
}

ImportedView import_tensor(runtime::Runtime& runtime, dlpack::DLManagedTensor* tensor) {
  return import_tensor(runtime, CapsuleOwner(tensor));
}

}  // namespace dlpack_usm::exchange
