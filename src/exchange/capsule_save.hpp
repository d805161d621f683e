// --save: the live facts of an exported tensor written down as a capsule
// file, which `capsule dump` and `capsule check` read back.
#pragma once

#include <filesystem>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::exchange {

// Atomically (temporary file, then rename). Throws Error(environment) when
// the file cannot be written.
void save_capsule_file(const std::filesystem::path& path, const facts::TensorFacts& facts);

}  // namespace dlpack_usm::exchange
