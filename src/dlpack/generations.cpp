#include "dlpack/generations.hpp"

#include <array>

#include <fmt/format.h>

namespace dlpack_usm::dl {
namespace {

// 0.6 to 1.1 were read at their tags (include/dlpack/dlpack.h); 1.2 adds
// kDLTrn (dlpack#168) and the exchange API (dlpack#174); 1.3 is the header
// apache-tvm-ffi ships, which the tests compare with this table. The codes of
// main after 1.3 come from the four commits past the v1.3 tag, merged in
// 2026 without a minor bump: kDLBcomplex (dlpack#187), kDLTPU and kDLTPUHost
// (dlpack#188), kDLAscend (dlpack#189), beside a comment on kDLMetal's data
// (dlpack#186).
constexpr std::array kGenerations{
    GenerationInfo{Generation::v0_6, "0.6", {0, 6}, true, "tag v0.6"},
    GenerationInfo{Generation::v0_7, "0.7", {0, 7}, true, "tag v0.7"},
    GenerationInfo{Generation::v0_8, "0.8", {0, 8}, true, "tag v0.8"},
    GenerationInfo{Generation::v1_0, "1.0", {1, 0}, true, "tag v1.0"},
    GenerationInfo{Generation::v1_1, "1.1", {1, 1}, true, "tag v1.1"},
    GenerationInfo{Generation::v1_2, "1.2", {1, 2}, true, "tag v1.2"},
    GenerationInfo{Generation::v1_3, "1.3", {1, 3}, true, "tag v1.3"},
    GenerationInfo{Generation::main_after_1_3,
                   "main after 1.3",
                   {1, 3},
                   false,
                   "main: dlpack#186, #187, #188, #189"},
};

// generation_info() indexes the table by the enumerator.
constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kGenerations.size(); ++i) {
    if (static_cast<std::size_t>(kGenerations[i].generation) != i) return false;
  }
  return kGenerations.back().generation == Generation::main_after_1_3;
}
static_assert(in_enum_order());

}  // namespace

std::string to_string(Release release) {
  return fmt::format("{}.{}", release.major, release.minor);
}

std::span<const GenerationInfo> generation_table() {
  return kGenerations;
}

const GenerationInfo& generation_info(Generation generation) {
  return kGenerations[static_cast<std::size_t>(generation)];
}

Release declared_by(Generation generation) {
  return generation_info(generation).declares;
}

}  // namespace dlpack_usm::dl
