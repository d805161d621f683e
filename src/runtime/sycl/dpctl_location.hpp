// Where dpctl's C interface lives: the file DLPACK_USM_DPCTL names, else the
// dpctl package of the interpreter scripts/setup.sh prepared, else that of
// python3 on PATH. The interpreters are asked (without importing dpctl, which
// would start SYCL in them) where the package is and which version it is;
// their answer is cached (dpctl_cache.hpp), so that Python starts again only
// when the interpreter or the library has changed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlpack_usm::runtime::sycl {

inline constexpr const char* kDpctlLibraryName = "libDPCTLSyclInterface.so";

struct DpctlCandidate {
  std::string path;      // the library file
  std::string found_by;  // how, for messages
  std::string version;   // dpctl's version, empty when unknown
};

// The first candidate that names an existing file; nullopt with every place
// tried listed in `tried` otherwise.
std::optional<DpctlCandidate> locate_dpctl(std::vector<std::string>* tried);

// dpctl's version from the dist-info directory beside the package that holds
// `library` ("0.22.1"); empty when there is none (a build from source).
std::string version_beside(const std::string& library);

}  // namespace dlpack_usm::runtime::sycl
