#include "suite/cases/producer/producer_lifetime.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <fmt/format.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "rules/rule_ids.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/produce_request.hpp"

namespace dlpack_usm::suite {
namespace {

// Bytes malloc has handed out and not taken back, all arenas; nullopt where
// the C library cannot say.
std::optional<std::uint64_t> heap_in_use() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return static_cast<std::uint64_t>(info.uordblks) + static_cast<std::uint64_t>(info.hblkhd);
#else
  return std::nullopt;
#endif
}

// A NULL deleter: a second tensor of the same request tells a buffer the
// library keeps (the same allocation again) from a fresh one per tensor.
CaseResult judge_null_deleter(PluginSession& session, const CaseSpec& spec, ProduceRequest& request,
                              const runtime::DeviceInfo& device, ProducedTensor& first,
                              CaseFindings& found) {
  runtime::Runtime& runtime = session.runtime();
  Produced again = produce_once(session, spec, request);
  if (again.refused) return *again.refused;
  ProducedTensor second =
      judge_produced(runtime, std::move(again.capsule), device.ref,
                     fmt::format("plugin:produce:{}", device.selector_name), found);
  std::uint64_t a = first.facts.data;
  std::uint64_t b = second.facts.data;
  // Dropping a NULL-deleter tensor tells the library nothing: whatever is
  // still allocated now stays so for good.
  first.capsule.reset();
  second.capsule.reset();
  bool both_alive = a != 0 && b != 0 &&
                    runtime.query(reinterpret_cast<const void*>(a), first.context).kind !=
                        facts::UsmKind::unknown &&
                    runtime.query(reinterpret_cast<const void*>(b), second.context).kind !=
                        facts::UsmKind::unknown;
  if (a != b && both_alive) {
    found.add(kNullDeleterOwnsRule,
              fmt::format("rule {}: the deleter is NULL, yet two requests gave two distinct live "
                          "allocations ({:#x} and {:#x}) that nobody can free: the library has a "
                          "destructor to give and leaks one allocation a tensor",
                          kNullDeleterOwnsRule, a, b));
  }
  return found.result(spec.id,
                      "the deleter is NULL and the library hands out memory it keeps alive "
                      "itself (the same allocation for two requests)");
}

// Produces and deletes `rounds` tensors, noting each struct's address in
// `addresses` (capacity reserved) when given; nullopt when each round handed
// one out, else the failed case. Nothing of the tool's own is allocated here
// but on a failure.
std::optional<CaseResult> produce_and_delete(PluginSession& session, const CaseSpec& spec,
                                             ProduceRequest& request, int rounds,
                                             std::vector<std::uintptr_t>* addresses = nullptr) {
  for (int round = 0; round < rounds; ++round) {
    Produced produced = produce_once(session, spec, request);
    if (addresses != nullptr && produced.capsule) {
      addresses->push_back(produced.capsule.is_versioned()
                               ? reinterpret_cast<std::uintptr_t>(produced.capsule.versioned())
                               : reinterpret_cast<std::uintptr_t>(produced.capsule.legacy()));
    }
    if (produced.refused) {
      // Declining a request granted before is no decline but a failure,
      // judged as one (judged_producer_exchange).
      produced.refused->outcome = Outcome::fail;
      produced.refused->exchange = ExchangeOutcome::none;
      produced.refused->message =
          fmt::format("round {} of {}: {}", round + 1, rounds, produced.refused->message);
      return produced.refused;
    }
    // Leaving scope calls the deleter once.
  }
  return std::nullopt;
}

// Two signs, both needed, say that kLifetimeRounds rounds of produce and
// delete leave their structs behind. Every struct has an address of its
// own: malloc never hands out memory that is still allocated, while a freed
// struct's chunk usually comes back for the next one. And the heap in use
// grows by at least a struct a round. The heap alone is not enough: a
// runtime's own bookkeeping moves it too (Intel's CPU OpenCL runtime by
// several KiB over its first queues and allocations, which the
// kLifetimeWarmUp rounds absorb, and by up to 80 bytes a round after).
CaseResult measure_struct_leak(PluginSession& session, const CaseSpec& spec,
                               ProduceRequest& request, CaseFindings& found) {
  std::uint64_t struct_bytes = request.versioned() ? sizeof(dlpack::DLManagedTensorVersioned)
                                                   : sizeof(dlpack::DLManagedTensor);
  if (!heap_in_use()) {
    return {spec.id, Outcome::not_supported,
            "reading the heap in use needs glibc 2.33 or later (mallinfo2)"};
  }
  if (auto failed = produce_and_delete(session, spec, request, kLifetimeWarmUp)) return *failed;
  std::vector<std::uintptr_t> addresses;
  addresses.reserve(kLifetimeRounds);
  std::uint64_t before = *heap_in_use();
  if (auto failed = produce_and_delete(session, spec, request, kLifetimeRounds, &addresses)) {
    return *failed;
  }
  std::uint64_t after = *heap_in_use();
  std::uint64_t grown = after > before ? after - before : 0;
  std::sort(addresses.begin(), addresses.end());
  auto distinct = std::distance(addresses.begin(), std::unique(addresses.begin(), addresses.end()));
  if (distinct == kLifetimeRounds && grown >= kLifetimeRounds * struct_bytes) {
    found.add(kStructLeakRule,
              fmt::format("rule {}: {} rounds of produce and delete gave {} structs at {} distinct "
                          "addresses (a freed one's memory comes back) and the heap in use grew by "
                          "{} bytes, at least the {} bytes of a {} a round: the deleter does not "
                          "free the struct it is given",
                          kStructLeakRule, kLifetimeRounds, kLifetimeRounds, distinct, grown,
                          struct_bytes,
                          request.versioned() ? "DLManagedTensorVersioned" : "DLManagedTensor"));
  }
  return found.result(
      spec.id, fmt::format("{} rounds of produce and delete gave structs at {} distinct addresses "
                           "and left the heap in use {} bytes larger (a leaked struct: {} "
                           "addresses and {} bytes or more)",
                           kLifetimeRounds, distinct, grown, kLifetimeRounds,
                           kLifetimeRounds * struct_bytes));
}

}  // namespace

CaseResult run_lifetime(PluginSession& session, const CaseSpec& spec,
                        const runtime::DeviceInfo& device, const matrix::MatrixTensor& tensor) {
  runtime::Runtime& runtime = session.runtime();
  ProduceRequest request = make_produce_request(session, device, tensor);
  CaseFindings found;
  Produced produced = produce_once(session, spec, request);
  if (produced.refused) return *produced.refused;
  ProducedTensor first =
      judge_produced(runtime, std::move(produced.capsule), device.ref,
                     fmt::format("plugin:produce:{}", device.selector_name), found);
  // A tensor the rules reject (the producer cases name why) measures nothing.
  if (found.has_errors() || !first.facts.body_read) return found.result(spec.id, "");
  if (!first.facts.has_deleter) {
    return judge_null_deleter(session, spec, request, device, first, found);
  }
  // The first round also warms the library's and the runtime's caches up.
  release_and_check_freed(runtime, first, found);
  if (found.has_errors()) return found.result(spec.id, "");
  return measure_struct_leak(session, spec, request, found);
}

}  // namespace dlpack_usm::suite
