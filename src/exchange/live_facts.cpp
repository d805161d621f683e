#include "exchange/live_facts.hpp"

#include "facts/memory_reader.hpp"

namespace dlpack_usm::exchange {

facts::RuntimeFacts live_runtime_facts(runtime::Runtime& runtime, const runtime::PointerInfo& info,
                                       const runtime::ContextRef& context) {
  facts::RuntimeFacts live;
  const runtime::Inventory& inventory = runtime.inventory();
  live.usm_kind = info.kind;
  live.root_device_count = inventory.root_device_count();
  // A pointer the context does not know tells nothing about which context
  // it is bound to, so default_context stays unset (the rules then name the
  // unknown pointer, not a wrong context).
  if (info.kind == facts::UsmKind::unknown) return live;
  // Compared by handle rather than trusting ContextRef::is_platform_default:
  // the question is whether the import protocol's lookup would find it.
  live.default_context = runtime.default_context(context.platform_index).handle == context.handle;
  // Size 0: the runtime cannot say (SYCL, for allocations it did not make).
  if (info.size > 0) {
    live.alloc_base = info.base;
    live.alloc_size = info.size;
  }
  // Host allocations belong to no device, so there is no owner to report.
  if (info.owner) {
    live.owner_root_index = info.owner->root_index;
    live.owner_sub_device_index = info.owner->sub_index;
    if (const runtime::DeviceInfo* owner = inventory.find(*info.owner)) {
      live.owner_device_name = owner->selector_name;
    }
  }
  return live;
}

facts::TensorFacts read_capsule_facts(const CapsuleOwner& capsule, std::string origin) {
  if (capsule.is_versioned()) {
    return facts::read_managed_tensor_versioned(capsule.versioned(), std::move(origin));
  }
  return facts::read_managed_tensor(capsule.legacy(), std::move(origin));
}

}  // namespace dlpack_usm::exchange
