// The outcomes of the compatibility matrix, both directions: each with the
// one symbol and the one colour every rendering uses, and what it means.
// The consumer outcomes keep the symbols of matrix::profile_classes, so the
// matrix reads like `check --consumer`'s capability profile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm::compat {

struct MatrixOutcome {
  std::string name;              // as the reports spell it: "accepted", "emitted-invalid"
  char symbol;                   // ASCII, so text and Markdown need no font
  std::string consumer_meaning;  // empty: not a consumer outcome
  std::string producer_meaning;  // empty: not a producer outcome
  // Colours for HTML, text on background: dark on light, a contrast of 7:1
  // or more (WCAG AAA), and never the only sign (the symbol is).
  std::string background;
  std::string foreground;
};

// In the legend's order: the good outcomes, the neutral ones, then harm.
const std::vector<MatrixOutcome>& matrix_outcomes();

// The outcome of `name`; an unknown one (a newer report) gets '?' and grey.
const MatrixOutcome& matrix_outcome(std::string_view name);

// What a cell's status says about the gate: the suffix of its symbol.
enum class CellGate { passes, warns, fails };
CellGate cell_gate(std::string_view status);
// "" for passes, "!" for warns, "!!" for fails.
std::string_view gate_suffix(CellGate gate);
// "passes", "warns", "fails".
std::string_view gate_name(CellGate gate);

// Orders two cells of one library and row (two reports of the same
// library): the one that fails the gate, warns, or is further down the
// legend is the worse.
int outcome_rank(std::string_view outcome, std::string_view status);

}  // namespace dlpack_usm::compat
