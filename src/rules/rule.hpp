// The rule catalog: every check the tool makes on a tensor, each with a
// stable id, the sentence of the spec or source document it enforces, and
// the DLPack versions where it applies. Rules are pure functions of Facts.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlpack/names.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::rules {

enum class Severity { info, warning, error };
const char* to_string(Severity severity);
// Accepts "info", "warning" and "error".
std::optional<Severity> parse_severity(std::string_view text);

struct RuleInfo {
  std::string_view id;      // "DLP-STRIDES-NULL"
  std::string_view family;  // "version", "flags", "dtype", "shape", "addressing", "alignment",
                            // "device", "deleter", "oneapi", "behaviour"
  std::string_view title;
  Severity severity;
  dl::Release since;                 // first DLPack release where it applies
  std::optional<dl::Release> until;  // last release where it applies, if it stopped
  std::string_view source;           // "dlpack.h 1.2", "seeds/000_a1fa70ac3aeb0d85.txt"
  std::string_view spec_text;        // the sentence enforced
};

struct Finding {
  std::string rule_id;
  Severity severity = Severity::error;
  std::string field;  // "dl_tensor.strides[1]", "version.major", "runtime.usm_kind"
  std::string message;
};

std::span<const RuleInfo> rule_catalog();
const RuleInfo* find_rule(std::string_view id);
// The families in catalog order, for `rules --family` and reports.
std::vector<std::string_view> rule_families();

// The release a tensor is judged by: its declared version, or
// dl::kLastLegacyRelease for a legacy DLManagedTensor.
dl::Release judged_release(const facts::TensorFacts& tensor);
bool applies_to(const RuleInfo& rule, dl::Release release);

// Every finding of every rule that applies to the tensor's version, in
// catalog order. When the header declares a major version other than 1 (or
// the body was not read), only the rules about the stable header run
// (version and deleter), whatever their version range: nothing else may be
// interpreted then.
std::vector<Finding> evaluate(const facts::TensorFacts& tensor);

bool has_errors(const std::vector<Finding>& findings);

}  // namespace dlpack_usm::rules
