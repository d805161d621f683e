// Copies out of memory a producer pointed to without trusting the pointer:
// the kernel does the first copy (process_vm_readv on this process), so an
// unmapped, PROT_NONE or non-canonical address is an answer, not a crash of
// the reader's process (which, through the bridge, is a Python interpreter).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlpack_usm::facts {

// Copies `size` bytes at `source` to `destination` when every one of them is
// readable; returns false, with `destination` unspecified, when any is not.
bool copy_readable(void* destination, const void* source, std::size_t size) noexcept;

}  // namespace dlpack_usm::facts
