// Helpers shared by the rules_*_test.cpp files: a tensor every rule accepts,
// and questions about which rules fire on a variation of it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "rules/rule.hpp"

namespace dlpack_usm::rules::testing {

// A 2x3 row-major float32 CPU tensor of DLPack 1.3 at a 256-byte-aligned
// address: no rule has anything to say about it.
inline facts::TensorFacts clean_tensor() {
  facts::TensorFacts tensor;
  tensor.abi = facts::Abi::versioned;
  tensor.version = {1, 3};
  tensor.flags = 0;
  tensor.has_deleter = true;
  tensor.data = 0x10000;
  tensor.device_type = dlpack::kDLCPU;
  tensor.device_id = 0;
  tensor.ndim = 2;
  tensor.dtype = {dlpack::kDLFloat, 32, 1};
  tensor.shape = std::vector<std::int64_t>{2, 3};
  tensor.strides = std::vector<std::int64_t>{3, 1};
  tensor.byte_offset = 0;
  return tensor;
}

// A kDLOneAPI device allocation on root device 1 of 2, in the default
// context, with the tensor exactly covering it.
inline facts::TensorFacts clean_oneapi_tensor() {
  facts::TensorFacts tensor = clean_tensor();
  tensor.device_type = dlpack::kDLOneAPI;
  tensor.device_id = 1;
  facts::RuntimeFacts runtime;
  runtime.usm_kind = facts::UsmKind::device;
  runtime.owner_root_index = 1;
  runtime.owner_device_name = "opencl:cpu:1";
  runtime.root_device_count = 2;
  runtime.default_context = true;
  runtime.alloc_base = tensor.data;
  runtime.alloc_size = 24;
  tensor.runtime = runtime;
  return tensor;
}

inline std::vector<std::string> fired_ids(const facts::TensorFacts& tensor) {
  std::vector<std::string> ids;
  for (const Finding& finding : evaluate(tensor)) ids.push_back(finding.rule_id);
  return ids;
}

inline bool fires(const facts::TensorFacts& tensor, const std::string& id) {
  auto ids = fired_ids(tensor);
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The ids of the findings that report a defect (warnings and errors; a
// rule's severity follows its source, so many defects are warnings), each
// once, in catalog order. One defect should give one of these.
inline std::vector<std::string> problem_ids(const facts::TensorFacts& tensor) {
  std::vector<std::string> ids;
  for (const Finding& finding : evaluate(tensor)) {
    if (finding.severity == Severity::info) continue;
    if (std::find(ids.begin(), ids.end(), finding.rule_id) == ids.end()) {
      ids.push_back(finding.rule_id);
    }
  }
  return ids;
}

// The findings of one rule, for checking fields and messages.
inline std::vector<Finding> findings_of(const facts::TensorFacts& tensor, const std::string& id) {
  std::vector<Finding> out;
  for (const Finding& finding : evaluate(tensor)) {
    if (finding.rule_id == id) out.push_back(finding);
  }
  return out;
}

}  // namespace dlpack_usm::rules::testing
