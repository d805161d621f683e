// Facts derived from a tensor's declared fields: element count, byte extent
// computed from the strides (not the product of the shape), contiguity and
// alignment. Shared by `capsule dump` and the addressing rules, so both say
// the same thing. All arithmetic is overflow-checked.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

enum class Contiguity { c, f, both, neither, unknown };
const char* to_string(Contiguity contiguity);

struct DerivedFacts {
  // (bits * lanes + 7) / 8, the header's GetDataSize element size. Sub-byte
  // types make it 1 even where several elements share a byte.
  std::uint64_t element_bytes = 0;
  // nullopt when the shape is unreadable or its product overflows 64 bits.
  std::optional<std::uint64_t> element_count;
  bool element_count_overflows = false;
  // The strides that apply: the declared ones, or row-major ones when NULL.
  std::optional<std::vector<std::int64_t>> effective_strides;
  // Byte offsets, relative to data + byte_offset, of the lowest byte and one
  // past the highest byte any element occupies. Both 0 for a size-0 tensor.
  // nullopt when unreadable or when the computation overflows 64 bits.
  std::optional<std::int64_t> lowest_byte;
  std::optional<std::int64_t> end_byte;
  bool extent_overflows = false;
  Contiguity contiguity = Contiguity::unknown;
  // data is a handle of the device type's API (cl_mem, VkBuffer,
  // id<MTLBuffer>, a WebGPU buffer), not an address: no alignment below.
  bool data_is_handle = false;
  // Largest power of two (up to 4096) dividing the address; 0 for NULL and
  // for a handle.
  std::uint64_t data_alignment = 0;
  std::uint64_t first_element_alignment = 0;  // of data + byte_offset
};

DerivedFacts derive(const TensorFacts& tensor);
// The same into `derived`, whose strides buffer is reused: checking a stream
// of tensors allocates nothing here once it has grown to the widest.
void derive_into(const TensorFacts& tensor, DerivedFacts& derived);

// Row-major (C-order) strides of `shape`, in elements; nullopt on overflow.
std::optional<std::vector<std::int64_t>> row_major_strides(const std::vector<std::int64_t>& shape);

// Largest power of two dividing `address`, capped at `cap`; 0 for 0.
std::uint64_t alignment_of(std::uint64_t address, std::uint64_t cap = 4096);

}  // namespace dlpack_usm::facts
