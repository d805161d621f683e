#include "suite/produced_tensor.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/live_facts.hpp"
#include "facts/memory_reader.hpp"

namespace dlpack_usm::suite {

void CaseFindings::add(std::string rule_id, std::string message) {
  if (!rule_id.empty()) rule_ids_.push_back(std::move(rule_id));
  messages_.push_back(std::move(message));
}

void CaseFindings::warn(std::string rule_id, std::string message) {
  rule_ids_.push_back(std::move(rule_id));
  warnings_.push_back(std::move(message));
}

CaseResult CaseFindings::result(const std::string& id, const std::string& pass_message) const {
  CaseResult result;
  result.id = id;
  result.rule_ids = rule_ids_;
  if (messages_.empty()) {
    result.outcome = Outcome::pass;
    result.message = warnings_.empty()
                         ? pass_message
                         : fmt::format("{}; warning: {}", pass_message, fmt::join(warnings_, "; "));
  } else {
    result.outcome = Outcome::fail;
    result.message = fmt::format("{}", fmt::join(messages_, "; "));
  }
  return result;
}

ProducedTensor judge_produced(runtime::Runtime& runtime, exchange::CapsuleOwner capsule,
                              const runtime::DeviceRef& requested, const std::string& origin,
                              CaseFindings& found) {
  ProducedTensor tensor;
  tensor.capsule = std::move(capsule);
  try {
    tensor.facts = exchange::read_capsule_facts(tensor.capsule, origin);
  } catch (const facts::UnreadableMemory& error) {
    found.add("", error.what());
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
  if (tensor.facts.body_read && tensor.facts.data != 0) {
    tensor.pointer =
        runtime.query(reinterpret_cast<const void*>(tensor.facts.data), tensor.context);
    tensor.facts.runtime = exchange::live_runtime_facts(runtime, tensor.pointer, tensor.context);
  }
  tensor.findings = rules::evaluate(tensor.facts);
  for (const rules::Finding& finding : tensor.findings) {
    std::string message =
        fmt::format("rule {} ({}): {}", finding.rule_id, finding.field, finding.message);
    if (finding.severity == rules::Severity::error) {
      found.add(finding.rule_id, std::move(message));
    } else if (finding.severity == rules::Severity::warning) {
      found.warn(finding.rule_id, std::move(message));
    }
  }
  return tensor;
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
    found.add("DLP-PRODUCER-DELETER-LEAK",
              fmt::format("rule DLP-PRODUCER-DELETER-LEAK: the deleter ran, but the {} USM "
                          "allocation at {} ({} bytes) is still alive",
                          facts::to_string(after.kind), base, after.size));
  }
}

}  // namespace dlpack_usm::suite
