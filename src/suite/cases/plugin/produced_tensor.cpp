#include "suite/cases/plugin/produced_tensor.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "exchange/live_facts.hpp"
#include "facts/memory_reader.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {

ProducedTensor judge_produced(runtime::Runtime& runtime, exchange::CapsuleOwner capsule,
                              const runtime::DeviceRef& requested, const std::string& origin,
                              CaseFindings& found) {
  ProducedTensor tensor;
  tensor.capsule = std::move(capsule);
  try {
    tensor.facts = exchange::read_capsule_facts(tensor.capsule, origin);
  } catch (const facts::UnreadableMemory& error) {
    found.add_failure(error.what());
    tensor.facts.body_read = false;
    // A struct that cannot be read has no deleter that can be read either:
    // the tensor is left alone (leaked) rather than crash the worker.
    if (error.field() == "tensor") {
      if (tensor.capsule.is_versioned()) {
        tensor.capsule.release_versioned();
      } else {
        tensor.capsule.release_legacy();
      }
    }
    return tensor;
  }
  const runtime::PlatformInfo* platform = runtime.inventory().platform_of(requested);
  if (platform == nullptr) fail_environment("the requested device has no platform");
  tensor.context = runtime.default_context(platform->index);
  // A size-0 tensor may have NULL data (the header recommends it): there is
  // nothing to look up then, and the rules judge it without runtime facts.
  // Nor is there for a handle ("cl_mem handle in OpenCL. It may be opaque on
  // some device types."): no runtime is asked about it as if an address.
  if (tensor.facts.body_read && tensor.facts.data != 0 &&
      !dl::data_is_handle(tensor.facts.device_type)) {
    tensor.pointer =
        runtime.query(reinterpret_cast<const void*>(tensor.facts.data), tensor.context);
    tensor.facts.runtime = exchange::live_runtime_facts(runtime, tensor.pointer, tensor.context);
  }
  tensor.findings = rules::evaluate(tensor.facts);
  for (const rules::Finding& finding : tensor.findings) {
    std::string message =
        fmt::format("rule {} ({}): {}", finding.rule_id, finding.field, finding.message);
    // Infos say something worth knowing, not something the library did wrong.
    if (finding.severity != rules::Severity::info) found.add(finding, std::move(message));
  }
  return tensor;
}

exchange::ImportedView import_produced(runtime::Runtime& runtime, ProducedTensor& tensor,
                                       const runtime::DeviceRef& requested) {
  exchange::ImportedPlacement placement;
  placement.root_device = runtime::DeviceRef{requested.root_index, std::nullopt};
  placement.owner_device = tensor.pointer.owner;
  placement.context = tensor.context;
  placement.usm_kind = tensor.pointer.kind;
  return exchange::ImportedView(runtime, std::move(tensor.capsule), placement, tensor.facts,
                                tensor.findings);
}

void release_and_check_freed(runtime::Runtime& runtime, ProducedTensor& tensor,
                             CaseFindings& found) {
  tensor.capsule.reset();
  if (tensor.pointer.kind == facts::UsmKind::unknown || !tensor.facts.has_deleter) return;
  // SYCL cannot say where a library's allocation starts (size 0); the data
  // pointer then stands for it: it lay inside the allocation before.
  const void* base = reinterpret_cast<const void*>(tensor.pointer.size > 0 ? tensor.pointer.base
                                                                           : tensor.facts.data);
  runtime::PointerInfo after = runtime.query(base, tensor.context);
  if (after.kind != facts::UsmKind::unknown) {
    found.add(rules::ids::kProducerDeleterLeak,
              fmt::format("rule DLP-PRODUCER-DELETER-LEAK: the deleter ran, but the {} USM "
                          "allocation at {} ({} bytes) is still alive",
                          facts::to_string(after.kind), base, after.size));
  }
}

std::string release_note(const ProducedTensor& tensor) {
  if (!tensor.facts.has_deleter) {
    return "the deleter is NULL: the tool left it alone, and the library keeps the memory";
  }
  if (tensor.pointer.kind == facts::UsmKind::unknown) {
    return "the deleter ran once (the runtime does not know the pointer, so whether it released "
           "the allocation cannot be seen)";
  }
  return "the deleter ran once and released the allocation";
}

}  // namespace dlpack_usm::suite
