// SHA-256 (FIPS 180-4), so reports can name the exact expectation files a
// gate decision was made with, without a crypto library dependency.
#pragma once

#include <string>
#include <string_view>

namespace dlpack_usm {

// Lower-case hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace dlpack_usm
