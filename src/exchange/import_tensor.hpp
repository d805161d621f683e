// Import of a kDLOneAPI tensor, as dpctl's documentation ("DLPack exchange
// of USM allocated arrays") describes it: the root device from device_id, that platform's default
// context, the pointer's USM kind there (unknown is refused), the owning
// device. The importer owns the capsule from the first line: on every path,
// refusals included, the producer's deleter runs exactly once.
#pragma once

#include "dlpack/abi.hpp"
#include "exchange/capsule_owner.hpp"
#include "exchange/imported_view.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::exchange {

// Throws Error(findings) naming the rule when the protocol or the rule engine
// refuses the tensor (the deleter has run by then), Error(usage) for a NULL
// tensor, Error(environment) when the runtime cannot answer.
ImportedView import_tensor(runtime::Runtime& runtime, CapsuleOwner capsule);
ImportedView import_tensor(runtime::Runtime& runtime, dlpack::DLManagedTensorVersioned* tensor);
ImportedView import_tensor(runtime::Runtime& runtime, dlpack::DLManagedTensor* tensor);

}  // namespace dlpack_usm::exchange
