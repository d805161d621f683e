// A DLPack version as releases and tensors state it (MAJOR.MINOR).
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "dlpack/abi.hpp"

namespace dlpack_usm::dl {

// A DLPack release; legacy (unversioned) tensors are modelled as 0.8, the
// last release whose only exchange struct was DLManagedTensor.
struct Release {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  friend constexpr auto operator<=>(const Release&, const Release&) = default;
};
inline constexpr Release kLastLegacyRelease{0, 8};
inline constexpr Release kModelRelease{kModelMajor, kModelMinor};
std::string to_string(Release release);

}  // namespace dlpack_usm::dl
