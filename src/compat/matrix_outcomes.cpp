#include "compat/matrix_outcomes.hpp"

#include <algorithm>

#include "matrix/consumer_verdict.hpp"

namespace dlpack_usm::compat {
namespace {

// The symbol and meaning of a consumer class, as the capability profile
// prints them.
const matrix::ProfileClassInfo& consumer_class(std::string_view name) {
  const auto& classes = matrix::profile_classes();
  auto found =
      std::find_if(classes.begin(), classes.end(),
                   [name](const matrix::ProfileClassInfo& info) { return name == info.name; });
  return *found;  // every name below is one of them
}

MatrixOutcome consumer_outcome(const char* name, std::string producer_meaning,
                               const char* background, const char* foreground) {
  const matrix::ProfileClassInfo& info = consumer_class(name);
  return {name, info.symbol, info.meaning, std::move(producer_meaning), background, foreground};
}

std::vector<MatrixOutcome> make_outcomes() {
  return {
      consumer_outcome("accepted", "", "#cdebd0", "#0b4d1a"),
      {"emitted", 'E', "", "emitted, the capsule passes the rules", "#d6eec0", "#24480a"},
      consumer_outcome("refused", "refused a request it may refuse", "#e4f2ea", "#174a2c"),
      consumer_outcome("declined", "", "#e6e8ee", "#2b3442"),
      {"not-applicable", '.', "cannot be offered here", "cannot be made in this library", "#f4f4f4",
       "#4d4d4d"},
      consumer_outcome("wrong", "the wrong exception, or not what was asked for", "#ffe1b8",
                       "#633600"),
      consumer_outcome("accepted-invalid", "", "#fff0a6", "#574400"),
      {"emitted-invalid", 'X', "", "emitted a capsule that breaks a rule", "#ffd3c4", "#731f00"},
      consumer_outcome("deleter-misuse", "", "#f9c9df", "#681038"),
      consumer_outcome("crash", "crash", "#f5b8b8", "#660000"),
      consumer_outcome("hang", "hang", "#e7c8f0", "#4a0e5a"),
  };
}

}  // namespace

const std::vector<MatrixOutcome>& matrix_outcomes() {
  static const std::vector<MatrixOutcome> outcomes = make_outcomes();
  return outcomes;
}

const MatrixOutcome& matrix_outcome(std::string_view name) {
  static const MatrixOutcome unknown{"",
                                     '?',
                                     "another outcome (its note names it)",
                                     "another outcome (its note names it)",
                                     "#eeeeee",
                                     "#222222"};
  const auto& outcomes = matrix_outcomes();
  auto found = std::find_if(outcomes.begin(), outcomes.end(),
                            [name](const MatrixOutcome& outcome) { return outcome.name == name; });
  return found == outcomes.end() ? unknown : *found;
}

CellGate cell_gate(std::string_view status) {
  if (status == "warn") return CellGate::warns;
  if (status == "fail" || status == "crash" || status == "timeout" || status == "error") {
    return CellGate::fails;
  }
  return CellGate::passes;
}

std::string_view gate_suffix(CellGate gate) {
  switch (gate) {
    case CellGate::warns:
      return "!";
    case CellGate::fails:
      return "!!";
    default:
      return "";
  }
}

std::string_view gate_name(CellGate gate) {
  switch (gate) {
    case CellGate::warns:
      return "warns";
    case CellGate::fails:
      return "fails";
    default:
      return "passes";
  }
}

int outcome_rank(std::string_view outcome, std::string_view status) {
  const auto& outcomes = matrix_outcomes();
  const MatrixOutcome& found = matrix_outcome(outcome);
  auto position = static_cast<int>(outcomes.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (&outcomes[i] == &found) position = static_cast<int>(i);
  }
  return static_cast<int>(cell_gate(status)) * 100 + position;
}

}  // namespace dlpack_usm::compat
