// Tests of the SYCL runtime need dpctl's C interface, which scripts/setup.sh
// installs (PyPI dpctl in /opt/dlpack-usm/venv). Without it they skip
// visibly, naming what is missing and how to get it; where the peers are
// required (CI: DLPACK_USM_REQUIRE_USM=1 or DLPACK_USM_REQUIRE_PEERS=1)
// they fail instead.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/runtime.hpp"

namespace dlpack_usm::sycl_presence {

inline bool peers_required() {
  for (const char* name : {"DLPACK_USM_REQUIRE_USM", "DLPACK_USM_REQUIRE_PEERS"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && std::string(value) == "1") return true;
  }
  return false;
}

}  // namespace dlpack_usm::sycl_presence

#define SKIP_WITHOUT_SYCL()                                                                   \
  do {                                                                                        \
    std::string sycl_missing_why;                                                             \
    if (::dlpack_usm::runtime::sycl_runtime_or_null(&sycl_missing_why) == nullptr) {          \
      if (::dlpack_usm::sycl_presence::peers_required()) FAIL() << sycl_missing_why;          \
      GTEST_SKIP() << "dpctl's C interface is missing (" << sycl_missing_why                  \
                   << "); scripts/setup.sh installs dpctl into /opt/dlpack-usm/venv, or run " \
                      "`python3 -m pip install dpctl`";                                       \
    }                                                                                         \
  } while (false)
