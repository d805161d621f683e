// The notes a reader attaches to Facts when it had to stop short to stay
// safe. Both readers (in-memory structs and capsule files) use these, so that
// the same tensor gives the same notes whichever way it was read.
#pragma once

#include <cstdint>
#include <string>

namespace dlpack_usm::facts {

std::string note_ndim_beyond_limit(std::int64_t ndim);
std::string note_ndim_negative(std::int64_t ndim);
std::string note_unknown_major(std::uint32_t major);

}  // namespace dlpack_usm::facts
