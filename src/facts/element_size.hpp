// How many bytes an element takes and how many elements a shape holds: one
// definition for the rules, the derived facts, the exchange layouts and the
// plugin cases, so that they cannot disagree (sub-byte types especially).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "dlpack/abi.hpp"

namespace dlpack_usm::facts {

// (bits * lanes + 7) / 8, the element size of dlpack.h's GetDataSize: a
// sub-byte element still takes a whole byte of storage.
std::uint64_t element_storage_bytes(dlpack::DLDataType dtype);

// The product of the extents; nullopt when an extent is negative or the
// product overflows 64 bits. A zero extent anywhere makes it 0, even where
// the extents before it already overflowed.
std::optional<std::uint64_t> checked_element_count(std::span<const std::int64_t> shape);

}  // namespace dlpack_usm::facts
