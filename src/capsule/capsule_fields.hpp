// The capsule-file object of one tensor, turned into Facts field by field.
// Every refusal names the JSON pointer of the field, what was expected and
// what was found; unknown keys are refused so that typos never pass.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::capsule {

// `pointer` locates `tensor` in its document ("" or "/3"). The facts' origin
// is `origin`, followed by the file's own "origin" string in parentheses.
// Throws DocumentError.
facts::TensorFacts tensor_from_json(const nlohmann::json& tensor, const std::string& pointer,
                                    const std::string& origin);

}  // namespace dlpack_usm::capsule
