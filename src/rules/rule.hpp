// The rule catalog: every check the tool makes on a tensor, each with a
// stable id, the sentence of the spec or source document it enforces, and
// the DLPack versions where it applies. Rules are pure functions of Facts.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlpack/names.hpp"
#include "facts/derived.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::rules {

enum class Severity { info, warning, error };
const char* to_string(Severity severity);
// Accepts "info", "warning" and "error".
std::optional<Severity> parse_severity(std::string_view text);

// What a rule rests on decides how severe it may be. Words of the source:
// must-level words (must, must not, shall, can not, required) allow an error,
// should-level words (should, recommended, deprecated) a warning, words that
// only permit or describe (can, may) an info. Two kinds of basis that are
// not a word of the quote: "definition", the sentence defining a field whose
// domain the value lies outside of (a negative count of dimensions, a dtype
// code the declared version's enum does not define), allows an error as a
// must does, for such a tensor describes nothing a consumer can read;
// "convention", a practice the source states or array libraries widely
// follow without a must (bool is 8 bits), allows a warning. "heuristic"
// marks the tool's own judgement, such as a limit of its reader: an info.
enum class Strength { must, definition, should, convention, may, heuristic };
// nullopt for a word the catalog does not use.
std::optional<Strength> strength_of(std::string_view normative);
// Whether the normative word must occur in the quote: true for the words of
// a source, false for definition, convention and heuristic.
bool is_quoted_word(std::string_view normative);
Severity highest_severity(Strength strength);

struct RuleInfo {
  std::string_view id;      // "DLP-STRIDES-NULL"
  std::string_view family;  // "version", "flags", "dtype", "shape", "addressing", "alignment",
                            // "device", "deleter", "oneapi", "cuda", "runtime", "behaviour"
  std::string_view title;
  Severity severity;
  dlpack::Release since;                 // first DLPack release where it applies
  std::optional<dlpack::Release> until;  // last release where it applies, if it stopped
  // A public document a user can open: "dlpack.h 1.3, DLTensor::strides", a
  // dpctl documentation page, the array API standard's page.
  std::string_view reference;
  // The word of the quote it rests on ("must", "should", ...), or the kind
  // of basis: "definition", "convention" or "heuristic".
  std::string_view normative;
  // Verbatim from the reference (whitespace aside); a test checks it there.
  // Empty only for a heuristic that rests on no sentence.
  std::string_view quote;
  std::string_view rationale;  // the tool's reasoning, apart from the quote
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
// dlpack::kLastLegacyRelease for a legacy DLManagedTensor.
dlpack::Release judged_release(const facts::TensorFacts& tensor);
bool applies_to(const RuleInfo& rule, dlpack::Release release);

// Every finding of every rule that applies to the tensor's version, in
// catalog order. When the header declares a major version other than 1 (or
// the body was not read), only the rules about the stable header run
// (version and deleter), whatever their version range: nothing else may be
// interpreted then.
std::vector<Finding> evaluate(const facts::TensorFacts& tensor);

// What evaluate_into keeps from one tensor to the next: the derived facts
// and the findings, whose buffers are reused. Checking a stream of tensors
// (capsule check of a capture) then allocates nothing for a tensor without
// findings.
struct Evaluation {
  facts::DerivedFacts derived;
  std::vector<Finding> findings;  // of the last tensor evaluated
  // Which of the catalog's tensor rules run for the release (and header-only
  // reading) last judged: a capture's tensors share one, so the rules'
  // version ranges are compared once, not for every tensor.
  std::optional<std::pair<dlpack::Release, bool>> runs_for;
  std::vector<char> runs;
};
void evaluate_into(const facts::TensorFacts& tensor, Evaluation& evaluation);

bool has_errors(const std::vector<Finding>& findings);

}  // namespace dlpack_usm::rules
