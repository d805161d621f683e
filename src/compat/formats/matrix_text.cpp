#include "compat/formats/matrix_text.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"
#include "common/text_width.hpp"
#include "compat/formats/pair_grid_text.hpp"
#include "compat/matrix_notes.hpp"
#include "compat/matrix_outcomes.hpp"
#include "report/text_table.hpp"

namespace dlpack_usm::compat {
namespace {

std::string headline(const CompatibilityMatrix& matrix, const MatrixOptions& options) {
  std::string text =
      fmt::format("DLPack compatibility matrix: {} librar{}, {} rows", matrix.columns.size(),
                  matrix.columns.size() == 1 ? "y" : "ies", matrix.rows.size());
  std::size_t folded = matrix.folded_rows();
  if (folded != 0) {
    text += fmt::format("; {} where every library agrees {} (--{}fold {} them)", folded,
                        options.fold ? "are folded" : "are shown", options.fold ? "no-" : "",
                        options.fold ? "shows" : "folds");
  }
  return wrap_after("", text, "  ", options.width);
}

std::string text_libraries(const CompatibilityMatrix& matrix) {
  report::TextTable table({"library", "cells", "from"});
  for (const MatrixColumn& column : matrix.columns) {
    for (std::size_t i = 0; i < column.files.size(); ++i) {
      table.add_row({i == 0 ? column.title() : "", i == 0 ? std::to_string(column.cells) : "",
                     column.files[i]});
    }
  }
  return fmt::format("\nlibraries:\n{}", table.render("  "));
}

std::string meanings(const MatrixOutcome& outcome) {
  std::string text;
  if (!outcome.consumer_meaning.empty()) text = "consumer: " + outcome.consumer_meaning;
  if (!outcome.producer_meaning.empty()) {
    text += fmt::format("{}producer: {}", text.empty() ? "" : "; ", outcome.producer_meaning);
  }
  return text;
}

std::string text_legend(std::size_t width) {
  report::TextTable table({"", "outcome", "meaning"});
  for (const MatrixOutcome& outcome : matrix_outcomes()) {
    table.add_row({std::string(1, outcome.symbol), outcome.name, meanings(outcome)});
  }
  table.add_row({"?", "other", "an outcome this dlpack-usm does not know (see its note)"});
  return fmt::format("\nlegend:\n{}", table.render("  ")) +
         wrap_after("  ",
                    "After the symbol: ! the cell warns, !! it fails the gate; a number is its "
                    "note below. Blank: not measured.",
                    "  ", width);
}

std::vector<std::string> row_fields(const CompatibilityMatrix& matrix, const MatrixRow& row,
                                    const MatrixRow* previous, MatrixNotes& notes) {
  bool same_section =
      previous && previous->direction == row.direction && previous->axis == row.axis;
  // TextTable escapes what the reports said.
  std::vector<std::string> fields{same_section ? "" : row.direction, same_section ? "" : row.axis,
                                  row.value, row.place};
  for (std::size_t column = 0; column < row.cells.size(); ++column) {
    const std::optional<ProfileCell>& cell = row.cells[column];
    if (!cell) {
      fields.emplace_back();
      continue;
    }
    std::size_t note = notes.number(*cell, matrix.columns[column].title());
    fields.push_back(note == 0 ? cell_mark(*cell) : fmt::format("{}{}", cell_mark(*cell), note));
  }
  return fields;
}

std::string cells_table(const CompatibilityMatrix& matrix, const MatrixOptions& options,
                        MatrixNotes& notes) {
  std::vector<std::string> header{"direction", "axis", "value", "memory"};
  for (const MatrixColumn& column : matrix.columns) header.push_back(printable(column.title()));
  report::TextTable table(std::move(header));
  const MatrixRow* previous = nullptr;
  for (const MatrixRow& row : matrix.rows) {
    if (options.fold && matrix.folds(row)) continue;
    table.add_row(row_fields(matrix, row, previous, notes));
    previous = &row;
  }
  return fmt::format("\n{}", table.render());
}

std::string notes_text(const MatrixNotes& notes, std::size_t width) {
  if (notes.notes().empty()) return {};
  std::string text = "\nnotes:\n";
  for (std::size_t i = 0; i < notes.notes().size(); ++i) {
    const MatrixNote& note = notes.notes()[i];
    text += wrap_after(fmt::format("  {:>3}  ", i + 1),
                       fmt::format("{}: {}{}", printable(note.library), printable(note.text),
                                   note.cells > 1 ? fmt::format(" ({} cells)", note.cells) : ""),
                       "       ", width);
    if (!note.repro.empty()) text += fmt::format("       repro: {}\n", printable(note.repro));
  }
  return text;
}

}  // namespace

std::string matrix_to_text(const CompatibilityMatrix& matrix, const MatrixOptions& options) {
  MatrixNotes notes;
  std::string table = cells_table(matrix, options, notes);
  return headline(matrix, options) + pair_grid_text(matrix.pairs, options.width) +
         text_libraries(matrix) + text_legend(options.width) + table +
         notes_text(notes, options.width);
}

}  // namespace dlpack_usm::compat
