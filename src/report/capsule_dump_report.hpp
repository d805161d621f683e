// `capsule dump`: one model (the facts of every tensor of a file and what
// derive() says about them) and its two writers, text for people and JSON
// for machines. The writers only format; derive() has decided everything.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "facts/derived.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::report {

struct TensorDump {
  facts::TensorFacts facts;
  facts::DerivedFacts derived;
};

struct CapsuleDump {
  std::string file;
  std::vector<TensorDump> tensors;
};

CapsuleDump build_capsule_dump(std::string file, std::vector<facts::TensorFacts> tensors);

nlohmann::ordered_json capsule_dump_to_json(const CapsuleDump& dump);
std::string capsule_dump_to_text(const CapsuleDump& dump);

}  // namespace dlpack_usm::report
