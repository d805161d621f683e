// The catalog joins the families in a fixed order (so ids and output order
// are stable) and evaluate() runs every rule that applies to a tensor.
#include <algorithm>
#include <array>
#include <span>
#include <utility>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

const std::vector<RuleDefinition>& definitions() {
  static const std::vector<RuleDefinition> all = [] {
    std::vector<RuleDefinition> joined;
    for (auto family :
         {version_rules(), flags_rules(), dtype_rules(), shape_rules(), addressing_rules(),
          alignment_rules(), device_rules(), deleter_rules(), oneapi_rules(), cuda_rules(),
          runtime_rules(), behaviour_rules(), producer_behaviour_rules(), library_rules(),
          exchange_api_rules(), python_rules()}) {
      joined.insert(joined.end(), family.begin(), family.end());
    }
    return joined;
  }();
  return all;
}

// The rules whose check reads a tensor's facts, in catalog order. The others
// (behaviour, library and Python rules) are judged by the cases that run a
// library's code, so a tensor's evaluation does not even call them.
const std::vector<const RuleDefinition*>& tensor_rules() {
  static const std::vector<const RuleDefinition*> rules = [] {
    std::vector<const RuleDefinition*> reading;
    for (const RuleDefinition& rule : definitions()) {
      if (rule.check != judged_by_plugin_cases) reading.push_back(&rule);
    }
    return reading;
  }();
  return rules;
}

const std::vector<RuleInfo>& infos() {
  static const std::vector<RuleInfo> all = [] {
    std::vector<RuleInfo> out;
    for (const RuleDefinition& rule : definitions()) out.push_back(rule.info);
    return out;
  }();
  return all;
}

// A major other than the one this model knows means the layout past `flags`
// may have changed: dlpack.h allows reading nothing but the header then.
bool header_only(const facts::TensorFacts& tensor) {
  return !tensor.body_read ||
         (tensor.abi == facts::Abi::versioned && tensor.version.major != dlpack::kModelMajor);
}

// One evaluation's rule calls.
struct Pass {
  const RuleContext& context;
  std::vector<Finding>& findings;
  const std::vector<char>& runs;  // per place in tensor_rules()
};

// Whether each of `rules` runs for a tensor judged by `release`.
void choose_rules(const std::vector<const RuleDefinition*>& rules, dlpack::Release release,
                  bool only_header, std::vector<char>& runs) {
  runs.resize(rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    // A declared version this model cannot place makes version ranges say
    // nothing; the header rules hold for every major.
    runs[i] = only_header ? rules[i]->scope == Scope::header : applies_to(rules[i]->info, release);
  }
}

// Inlined into every slot below: the indirect call must be the slot's own.
[[gnu::always_inline]] inline void run_rule(const RuleDefinition& rule, const Pass& pass,
                                            std::size_t place) {
  if (pass.runs[place] == 0) return;
  Reporter report(rule.info, pass.findings);
  rule.check(pass.context, report);
}

// A call site of its own for each place in tensor_rules(): each then calls
// the same check every time, which a processor predicts, where one site
// calling fifty checks in turn is mispredicted at nearly every call (half
// an evaluation's time). Places past kSlots share the loop's site.
constexpr std::size_t kSlots = 96;

// The rules come as a span, a copy local to the evaluation: read through the
// static vector, their begin and size were loaded again after every call.
using RuleList = std::span<const RuleDefinition* const>;

template <std::size_t I>
[[gnu::always_inline]] inline void run_slot(RuleList rules, const Pass& pass) {
  if (I < rules.size()) run_rule(*rules[I], pass, I);
}

template <std::size_t... I>
void run_slots(RuleList rules, const Pass& pass, std::index_sequence<I...>) {
  (run_slot<I>(rules, pass), ...);
}

}  // namespace

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::info:
      return "info";
    case Severity::warning:
      return "warning";
    case Severity::error:
      break;
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view text) {
  for (Severity severity : {Severity::info, Severity::warning, Severity::error}) {
    if (text == to_string(severity)) return severity;
  }
  return std::nullopt;
}

std::optional<Strength> strength_of(std::string_view normative) {
  static constexpr std::pair<std::string_view, Strength> kWords[] = {
      {"must", Strength::must},
      {"must not", Strength::must},
      {"shall", Strength::must},
      {"can not", Strength::must},
      {"required", Strength::must},
      {"should", Strength::should},
      {"recommended", Strength::should},
      {"deprecated", Strength::should},
      {"can", Strength::may},
      {"may", Strength::may},
      {"definition", Strength::definition},
      {"convention", Strength::convention},
      {"heuristic", Strength::heuristic}};
  for (const auto& [word, strength] : kWords) {
    if (word == normative) return strength;
  }
  return std::nullopt;
}

bool is_quoted_word(std::string_view normative) {
  const std::optional<Strength> strength = strength_of(normative);
  return strength == Strength::must || strength == Strength::should || strength == Strength::may;
}

Severity highest_severity(Strength strength) {
  switch (strength) {
    case Strength::must:
    case Strength::definition:
      return Severity::error;
    case Strength::should:
    case Strength::convention:
      return Severity::warning;
    case Strength::may:
    case Strength::heuristic:
      break;
  }
  return Severity::info;
}

std::span<const RuleInfo> rule_catalog() {
  return infos();
}

const RuleInfo* find_rule(std::string_view id) {
  const auto& all = infos();
  auto it = std::find_if(all.begin(), all.end(), [id](const RuleInfo& r) { return r.id == id; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<std::string_view> rule_families() {
  std::vector<std::string_view> families;
  for (const RuleInfo& rule : infos()) {
    if (std::find(families.begin(), families.end(), rule.family) == families.end()) {
      families.push_back(rule.family);
    }
  }
  return families;
}

dlpack::Release judged_release(const facts::TensorFacts& tensor) {
  if (tensor.abi == facts::Abi::legacy) return dlpack::kLastLegacyRelease;
  return dlpack::Release{tensor.version.major, tensor.version.minor};
}

bool applies_to(const RuleInfo& rule, dlpack::Release release) {
  return rule.since <= release && (!rule.until || release <= *rule.until);
}

std::vector<Finding> evaluate(const facts::TensorFacts& tensor) {
  Evaluation evaluation;
  evaluate_into(tensor, evaluation);
  return std::move(evaluation.findings);
}

void evaluate_into(const facts::TensorFacts& tensor, Evaluation& evaluation) {
  facts::derive_into(tensor, evaluation.derived);
  const RuleContext context{tensor, evaluation.derived, judged_release(tensor)};
  evaluation.findings.clear();
  const std::vector<const RuleDefinition*>& rules = tensor_rules();
  std::pair<dlpack::Release, bool> reading{context.release, header_only(tensor)};
  if (evaluation.runs_for != reading) {
    choose_rules(rules, reading.first, reading.second, evaluation.runs);
    evaluation.runs_for = reading;
  }
  const Pass pass{context, evaluation.findings, evaluation.runs};
  run_slots(RuleList(rules), pass, std::make_index_sequence<kSlots>{});
  for (std::size_t i = kSlots; i < rules.size(); ++i) run_rule(*rules[i], pass, i);
}

bool has_errors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::error; });
}

}  // namespace dlpack_usm::rules
