// Facts about a tensor in this process: what the facts reader says about the
// struct a producer filled, plus what the runtime says about its pointer
// right now. Export and import both judge a tensor by these, and --save
// writes them down as a capsule file.
#pragma once

#include <string>

#include "exchange/capsule_owner.hpp"
#include "facts/tensor_facts.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::exchange {

// `info` is what `runtime.query(pointer, context)` answered.
facts::RuntimeFacts live_runtime_facts(runtime::Runtime& runtime, const runtime::PointerInfo& info,
                                       const runtime::ContextRef& context);

// The reader's facts of the tensor `capsule` holds (which must not be empty).
facts::TensorFacts read_capsule_facts(const CapsuleOwner& capsule, std::string origin);

}  // namespace dlpack_usm::exchange
