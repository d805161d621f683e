// The lifetime case of `check --producer`: what becomes of a tensor's
// memory once the consumer is done, beyond the allocation that every
// producer case checks. Run on one request of the live matrix:
// - a NULL deleter: two tensors are asked for; two distinct allocations
//   that outlive the tool's references belong to nobody
//   (DLP-PRODUCER-NULL-DELETER-OWNS);
// - a deleter: after one judged round and kLifetimeWarmUp more, the same
//   tensor is produced and deleted kLifetimeRounds times while the worker's
//   heap in use is read before and after (glibc mallinfo2); growth of a
//   struct's size a round means the deleter leaves the
//   DLManagedTensor(Versioned) allocated (DLP-PRODUCER-STRUCT-LEAK).
#pragma once

#include "matrix/live_matrix.hpp"
#include "rules/rule_ids.hpp"
#include "runtime/runtime.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

inline constexpr std::string_view kStructLeakRule = rules::ids::kProducerStructLeak;
inline constexpr std::string_view kNullDeleterOwnsRule = rules::ids::kProducerNullDeleterOwns;

// Rounds that warm the library and the runtime up, then rounds measured:
// enough that allocator noise (arena bookkeeping, a runtime's caches) stays
// well below rounds × 64 bytes.
inline constexpr int kLifetimeWarmUp = 64;
inline constexpr int kLifetimeRounds = 64;

CaseResult run_lifetime(PluginSession& session, const CaseSpec& spec,
                        const runtime::DeviceInfo& device, const matrix::MatrixTensor& tensor);

}  // namespace dlpack_usm::suite
