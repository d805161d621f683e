#include "compat/formats/matrix_text.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

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

// The cells table's heading of library `index` where the table is too wide
// for full names: A to Z, then AA, AB, ...
std::string column_letter(std::size_t index) {
  std::string letters;
  for (std::size_t rest = index + 1; rest > 0; rest = (rest - 1) / 26) {
    letters.insert(letters.begin(), static_cast<char>('A' + (rest - 1) % 26));
  }
  return letters;
}

// `lettered`: the cells table heads its columns with letters, which this
// table's first column gives.
std::string text_libraries(const CompatibilityMatrix& matrix, bool lettered, std::size_t width) {
  std::vector<std::string> header{"library", "cells", "from"};
  if (lettered) header.insert(header.begin(), "column");
  report::TextTable table(std::move(header));
  for (std::size_t c = 0; c < matrix.columns.size(); ++c) {
    const MatrixColumn& column = matrix.columns[c];
    for (std::size_t i = 0; i < column.files.size(); ++i) {
      std::vector<std::string> row{i == 0 ? column.title() : "",
                                   i == 0 ? std::to_string(column.cells) : "", column.files[i]};
      if (lettered) row.insert(row.begin(), i == 0 ? column_letter(c) : "");
      table.add_row(std::move(row));
    }
  }
  table.keep_whole(0);
  table.stack_when_too_wide();
  return fmt::format("\nlibraries:\n{}", table.render("  ", width));
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
  table.keep_whole(0);
  table.keep_whole(1);
  table.stack_when_too_wide();
  return fmt::format("\nlegend:\n{}", table.render("  ", width)) +
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

// The fields of every row shown, numbering the notes as they come.
std::vector<std::vector<std::string>> shown_rows(const CompatibilityMatrix& matrix,
                                                 const MatrixOptions& options, MatrixNotes& notes) {
  std::vector<std::vector<std::string>> rows;
  const MatrixRow* previous = nullptr;
  for (const MatrixRow& row : matrix.rows) {
    if (options.fold && matrix.folds(row)) continue;
    rows.push_back(row_fields(matrix, row, previous, notes));
    previous = &row;
  }
  return rows;
}

constexpr std::size_t kRowKeys = 4;  // direction, axis, value, memory

// The table of the row keys and library columns [first, last), each
// library headed by `headings`. `sectioned`: direction and axis are a line
// of their own above their rows, not two columns, for narrow widths.
report::TextTable cells_part(const std::vector<std::vector<std::string>>& rows,
                             const std::vector<std::string>& headings, std::size_t first,
                             std::size_t last, bool sectioned) {
  std::vector<std::string> header{"direction", "axis", "value", "memory"};
  if (sectioned) header.erase(header.begin(), header.begin() + 2);
  std::size_t keys = header.size();
  header.insert(header.end(), headings.begin() + first, headings.begin() + last);
  report::TextTable table(std::move(header));
  for (const std::vector<std::string>& row : rows) {
    if (sectioned && !(row[0].empty() && row[1].empty())) {
      std::vector<std::string> heading(keys + last - first);
      heading[0] = fmt::format("{} {}:", row[0], row[1]);
      table.add_row(std::move(heading));
    }
    std::vector<std::string> part(row.begin() + kRowKeys - keys, row.begin() + kRowKeys);
    if (sectioned) part[0] = "  " + part[0];
    part.insert(part.end(), row.begin() + kRowKeys + first, row.begin() + kRowKeys + last);
    table.add_row(std::move(part));
  }
  return table;
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = std::min(text.find('\n', begin), text.size());
    widest = std::max(widest, display_columns(std::string_view(text).substr(begin, end - begin)));
    begin = end + 1;
  }
  return widest;
}

// Where the table with the libraries' names is wider than `width`, its
// libraries are headed by letters (the libraries table says which) and cut
// into parts that fit, each repeating the row keys: a cell is never cut.
std::string cells_table(const CompatibilityMatrix& matrix, const MatrixOptions& options,
                        MatrixNotes& notes, bool& lettered) {
  std::vector<std::vector<std::string>> rows = shown_rows(matrix, options, notes);
  std::vector<std::string> names;
  for (const MatrixColumn& column : matrix.columns) names.push_back(printable(column.title()));
  std::string whole = cells_part(rows, names, 0, names.size(), false).render();
  lettered = options.width != 0 && widest_line(whole) > options.width;
  if (!lettered) return "\n" + whole;
  std::vector<std::string> letters;
  for (std::size_t c = 0; c < names.size(); ++c) letters.push_back(column_letter(c));
  std::string text;
  for (std::size_t first = 0; first < letters.size();) {
    // As many columns as fit, and at least one.
    std::size_t last = first + 1;
    while (last < letters.size() &&
           widest_line(cells_part(rows, letters, first, last + 1, true).render()) <=
               options.width) {
      ++last;
    }
    text += last - first == 1 ? fmt::format("\ncolumn {} of {}:\n", letters[first], letters.size())
                              : fmt::format("\ncolumns {}-{} of {}:\n", letters[first],
                                            letters[last - 1], letters.size());
    text += cells_part(rows, letters, first, last, true).render();
    first = last;
  }
  return text;
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
  bool lettered = false;
  std::string table = cells_table(matrix, options, notes, lettered);
  return headline(matrix, options) + pair_grid_text(matrix.pairs, options.width) +
         text_libraries(matrix, lettered, options.width) + text_legend(options.width) + table +
         notes_text(notes, options.width);
}

}  // namespace dlpack_usm::compat
