// The elements of a strided tensor in increasing address order, so that a
// large tensor can be written or read a window at a time instead of through
// one host copy of the whole (exchange's 1 GiB round trip). The walk needs
// axes that nest: ordered by |stride|, each steps over the whole extent of
// the next, as every layout make_layout gives and every view of one that
// does not overlap itself. Then each element comes once, above the last.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace dlpack_usm::exchange {

// Calls visit(index, position) for every element of a tensor of `shape`
// and `strides` (in elements): its row-major index, and its byte position
// relative to data + byte_offset (element_byte_position's), in increasing
// position. False, visiting nothing, where the axes do not nest.
bool walk_in_address_order(
    const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
    std::uint64_t element_bytes,
    const std::function<void(std::uint64_t index, std::int64_t position)>& visit);

}  // namespace dlpack_usm::exchange
