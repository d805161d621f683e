// Capsule files: JSON documents describing tensors exactly as producers
// handed them over (field names mirror the C structs), plus an optional
// "runtime" section with what the owning runtime says about the pointer.
// The JSON Schema is conformance/schema/capsule.schema.json.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::capsule {

// One object, a JSON array of objects, or JSON lines. Throws Error(usage)
// naming the file, the tensor and the field (a JSON pointer) on any problem.
std::vector<facts::TensorFacts> read_capsule_file(const std::filesystem::path& path);
std::vector<facts::TensorFacts> parse_capsule_text(std::string_view text,
                                                   const std::string& origin);

// The capsule-file form of `facts`; parse_capsule_text of its dump gives the
// same facts back.
nlohmann::ordered_json to_capsule_json(const facts::TensorFacts& facts);

}  // namespace dlpack_usm::capsule
