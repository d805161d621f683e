// How much slow work the stream case's control puts before its write: the
// same as the fixture producers' asynchronous write (fixtures/plugins/
// async_write.h), 4 fills of 16 MiB, tens of milliseconds on a CPU device,
// far longer than the tool takes to read a tensor once produce returns.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlpack_usm::runtime {

inline constexpr std::size_t kLateWriteScratchBytes = std::size_t{16} << 20;
inline constexpr std::uint32_t kLateWriteScratchFills = 4;

}  // namespace dlpack_usm::runtime
