// One tensor of the consumer matrix, exported from a default-context USM
// allocation with the tool's pattern and handed to a consumer, with the
// deleter calls counted and the allocation kept readable after the deleter
// ran (to find writes into READ_ONLY tensors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "dlpack_usm/plugin.h"
#include "matrix/consumer_matrix.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::matrix {

// A tensor handed to the consumer and everything it points to, kept alive
// until the case ends whatever the consumer does.
struct OfferedTensor {
  std::shared_ptr<runtime::UsmBuffer> buffer;
  runtime::UsmBuffer separate;
  std::unique_ptr<float[]> host_memory;
  void* tensor = nullptr;
  bool versioned = true;
  std::uint64_t checksum = DLPACK_USM_CHECKSUM_SEED;
  std::vector<std::byte> image;  // the allocation's bytes as offered
  // Set when the tensor was offered with a NULL deleter: the tool kept
  // ownership, and this frees the tensor once the case is done with it.
  void (*kept_deleter)(void* tensor) = nullptr;
};

// Exports `shape` on `device` in USM of `kind`, and breaks it the way an
// invalid case needs.
OfferedTensor offer(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                    facts::UsmKind kind, const OfferedShape& shape);

// How often the consumer called the offered tensor's deleter since the last
// reset (a worker runs many cases in one process; only the first call frees).
int offered_deleter_calls();
void reset_offered_deleter_calls();
// Frees an offered tensor the consumer never saw, or one offered with a NULL
// deleter (the tool's to free).
void free_unconsumed(const OfferedTensor& offered);

// How many bytes of the allocation differ from what was offered: the tool's
// allocation outlives the deleter, so it can be read back after consume.
std::size_t written_bytes(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                          const OfferedTensor& offered);

}  // namespace dlpack_usm::matrix
