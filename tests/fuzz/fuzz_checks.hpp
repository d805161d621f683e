// What both fuzz targets demand of every tensor a reader produced: the rest
// of the capsule pipeline (derived facts, rules, both dump writers) runs on
// it without a crash, and the capsule-file form reads back as the same
// facts. A broken promise aborts, which libFuzzer reports as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "facts/derived.hpp"
#include "facts_test_support.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/findings_report.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::fuzz {

[[noreturn]] inline void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz check failed: %s: %s\n", what, detail.c_str());
  std::abort();
}

inline void check_tensor(const facts::TensorFacts& tensor) {
  std::vector<rules::Finding> findings = rules::evaluate(tensor);
  report::FindingsReport findings_report;
  findings_report.files.push_back({"fuzz", {}, {{tensor.origin, findings}}});
  (void)report::findings_report_to_json(findings_report).dump();
  (void)report::findings_report_to_text(findings_report);

  report::CapsuleDump dump = report::build_capsule_dump("fuzz", {tensor});
  (void)report::capsule_dump_to_json(dump).dump(-1, ' ', false,
                                                nlohmann::ordered_json::error_handler_t::replace);
  (void)report::capsule_dump_to_text(dump);

  std::string text = capsule::to_capsule_json(tensor).dump(
      -1, ' ', false, nlohmann::ordered_json::error_handler_t::strict);
  std::vector<facts::TensorFacts> back;
  try {
    back = capsule::parse_capsule_text(text, "round-trip");
  } catch (const Error& error) {
    broken("canonical form does not read back", std::string(error.what()) + "\n" + text);
  }
  if (back.size() != 1) broken("canonical form is not one tensor", text);
  std::vector<std::string> differences = facts::testing::differences(tensor, back[0]);
  if (!differences.empty()) broken("round trip changed", differences.front() + "\n" + text);
}

}  // namespace dlpack_usm::fuzz
