// Judging a tensor a library under test produced, as a conformant consumer
// would: the rule engine on its live facts (the pointer looked up in the
// default context of the device the tensor was asked for, so a wrong
// device_id is named by its rule instead of derailing the lookup), then,
// after the tool has called the deleter once, whether the allocation is gone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "exchange/capsule_owner.hpp"
#include "exchange/imported_view.hpp"
#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"
#include "runtime/runtime.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {

struct ProducedTensor {
  exchange::CapsuleOwner capsule;
  facts::TensorFacts facts;
  runtime::ContextRef context;           // the default context it was looked up in
  runtime::PointerInfo pointer;          // what that context said about data
  std::vector<rules::Finding> findings;  // every finding of the rule engine
};

// Reads the tensor, asks the runtime about its data in the default context
// of `requested`'s platform, and evaluates every rule; error findings go
// into `found`.
ProducedTensor judge_produced(runtime::Runtime& runtime, exchange::CapsuleOwner capsule,
                              const runtime::DeviceRef& requested, const std::string& origin,
                              CaseFindings& found);

// The view a consumer holds of the tensor once the import protocol placed
// it on the device it was asked for: takes the capsule (its deleter runs
// when the view goes). Throws Error(findings) where the import refuses it.
exchange::ImportedView import_produced(runtime::Runtime& runtime, ProducedTensor& tensor,
                                       const runtime::DeviceRef& requested);

// Calls the deleter (once) and checks that the allocation it pointed into is
// released: the default context no longer knows the pointer. Skipped when
// the pointer was unknown to begin with (a rule has said so) or there is no
// deleter (the producer keeps the memory by other means).
void release_and_check_freed(runtime::Runtime& runtime, ProducedTensor& tensor,
                             CaseFindings& found);

// What release_and_check_freed did, in words for a case's message: the
// deleter ran and released the allocation, ran where the release cannot be
// seen, or was NULL and left alone.
std::string release_note(const ProducedTensor& tensor);

}  // namespace dlpack_usm::suite
