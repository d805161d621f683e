// `capsule dump`: one model (the facts of every tensor of a file and what
// derive() says about them) and the one walk that prints it, as text for
// people or JSON for machines. The walk only formats; derive() has decided
// everything.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "facts/derived.hpp"
#include "facts/tensor_facts.hpp"
#include "report/printer.hpp"

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
// A tensor with what derive() says about it.
TensorDump dump_tensor(const facts::TensorFacts& tensor);

// A dump is information: it never fails (an unreadable file is an error before it).
inline ExitCode decide_exit_code(const CapsuleDump&) {
  return ExitCode::ok;
}

void print_capsule_dump(Printer& printer, const CapsuleDump& dump);
// One tensor as an object under `key` (a list item when `key` is empty),
// titled by its origin in text; `exchange` shows the tensor it exported so.
void print_tensor_dump(Printer& printer, std::string_view key, const TensorDump& tensor);

nlohmann::ordered_json capsule_dump_to_json(const CapsuleDump& dump);
std::string capsule_dump_to_text(const CapsuleDump& dump);

}  // namespace dlpack_usm::report
