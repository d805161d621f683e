#include "compat/matrix_notes.hpp"

#include "compat/matrix_outcomes.hpp"

namespace dlpack_usm::compat {

bool has_note(const ProfileCell& cell) {
  bool plain_success = (cell.outcome == "accepted" || cell.outcome == "emitted") &&
                       cell_gate(cell.status) == CellGate::passes;
  return !plain_success &&
         (!cell_detail(cell).empty() || cell_gate(cell.status) != CellGate::passes);
}

std::size_t MatrixNotes::number(const ProfileCell& cell, const std::string& library) {
  if (!has_note(cell)) return 0;
  std::string text = cell_note(cell);
  auto [found, added] = number_of_.emplace(library + '\n' + text, notes_.size() + 1);
  if (added) notes_.push_back({library, text, cell.repro, 0});
  MatrixNote& note = notes_[found->second - 1];
  ++note.cells;
  if (note.repro.empty()) note.repro = cell.repro;
  return found->second;
}

}  // namespace dlpack_usm::compat
