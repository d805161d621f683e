// The dlpack.h generations the tool knows: every released header from 0.6
// (Debian 12's) to 1.3, and main after 1.3. Each device type and dtype code
// of names.cpp names the first generation whose header knows it, so that a
// code is judged by the headers that define it, not by `version.minor`:
// main after 1.3 added codes but still declares DLPACK_MINOR_VERSION 3.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "dlpack/release.hpp"

namespace dlpack_usm::dl {

// Oldest first; every code the model knows is known from one of these on.
enum class Generation : std::uint8_t {
  v0_6,
  v0_7,
  v0_8,
  v1_0,
  v1_1,
  v1_2,
  v1_3,
  main_after_1_3,
};

struct GenerationInfo {
  Generation generation;
  std::string_view name;  // "0.6", ..., "1.3", "main after 1.3"
  // The version the header itself declares: DLPACK_VERSION 60 is 0.6;
  // main after 1.3 still declares 1.3. A producer built against the header
  // writes it into DLManagedTensorVersioned::version.
  Release declares;
  // False for main: no tag carries its codes yet, so a consumer built
  // against any released header does not know them.
  bool released;
  // Where the generation was checked upstream (dmlc/dlpack): its tag, or
  // the pull requests merged after the last one.
  std::string_view upstream;
};

std::span<const GenerationInfo> generation_table();
const GenerationInfo& generation_info(Generation generation);
// The version a producer built against the generation's header declares.
Release declared_by(Generation generation);

}  // namespace dlpack_usm::dl
