// The notes of the renderings that have no tooltip (text, Markdown): each
// cell with something to say beyond its symbol gets the number of a note;
// cells of one library that say the same share it (numpy declines 50 USM
// cells with one RuntimeError), and the note counts them and names the
// repro of the first.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "compat/matrix_model.hpp"

namespace dlpack_usm::compat {

struct MatrixNote {
  std::string library;  // the column's title
  std::string text;     // cell_note(): outcome (status): reason; rule: message
  std::string repro;    // the first cell's
  std::size_t cells = 0;
};

class MatrixNotes {
 public:
  // The 1-based number of the cell's note, 0 for a cell with nothing to
  // add (accepted or emitted, passing, without a reason).
  std::size_t number(const ProfileCell& cell, const std::string& library);
  const std::vector<MatrixNote>& notes() const { return notes_; }

 private:
  std::vector<MatrixNote> notes_;
  std::map<std::string, std::size_t> number_of_;
};

// Whether a cell says more than its symbol.
bool has_note(const ProfileCell& cell);

}  // namespace dlpack_usm::compat
