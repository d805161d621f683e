// The text forms of capsule-file values, read from their text alone: an
// address written "0x...", a dtype name ("float32x4"), flag names. Both
// readers of capsule files use these (the reference reader over nlohmann's
// values, the line reader over the bytes it scans), so a value means the same
// whichever reader met it; each reader words its own refusal of nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dlpack/abi.hpp"

namespace dlpack_usm::capsule {

// "0x" or "0X" and 1 to 16 hex digits.
std::optional<std::uint64_t> address_from_text(std::string_view text);

// "float32", or with lanes "float32x4" ("complex64" has an 'x' of its own,
// so the whole name is tried first); 1 to 65535 lanes.
std::optional<dlpack::DLDataType> dtype_from_shorthand(std::string_view text);

// One flag, spaces around it ignored: a name ("READ_ONLY",
// "DLPACK_FLAG_BITMASK_READ_ONLY"), or a number in decimal or 0x hex for
// bits without a name.
std::optional<std::uint64_t> flag_from_token(std::string_view token);

// Flag tokens joined by '|' ("READ_ONLY|IS_COPIED").
std::optional<std::uint64_t> flags_from_text(std::string_view text);

}  // namespace dlpack_usm::capsule
