// The compatibility matrix that `report matrix` renders: the cells of every
// library's profile (read by matrix_inputs.hpp from profile, consume and
// check reports) normalised into one model — one column per library, one
// row per cell of the matrix — which each format walks once.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "compat/pair_grid.hpp"

namespace dlpack_usm::compat {

// One cell of one library's profile, as the contract's ENTRY has it: one
// direction, one device and memory, one axis and value, and what happened.
struct ProfileCell {
  std::string direction;  // "producer" or "consumer"
  std::string device;     // as the run named it: "cpu", "opencl:cpu:0", "cuda:0"
  std::string memory;     // "cpu", "host-usm", "device-usm", "shared-usm", "cuda", ...
  std::string axis;
  std::string value;
  std::string outcome;  // matrix_outcomes.hpp
  std::string status;   // the case's: pass, warn, fail, not_supported, crash, ...
  std::string reason;   // why declined, refused or not applicable
  std::string exception;
  std::string case_id;
  std::string rule;  // the worst finding's rule id, if any
  std::string message;
  std::string repro;  // a command line that runs this cell again
  // What a producer emitted, as the profile report words it ("dltensor_versioned
  // 1.0, strides [5, 1], kDLCPU:0"); empty elsewhere.
  std::string emitted;
};

// What one input file said about one library.
struct LibraryProfile {
  std::string file;
  std::string kind;  // "profile report", "consume report", "check report"
  std::string library;
  std::string version;   // "" where the report names none
  std::string machine;   // the profile report's machine label, if any
  std::string measured;  // the day the report's run started ("2026-11-29"), "" where unknown
  std::vector<ProfileCell> cells;
  // A handoff's (two libraries at once): the tensors it handed over, for
  // the pairwise grid, and no cells of a column.
  bool handoff = false;
  std::vector<PairCase> pairs;
};

// A library as a column: every input of one name and version, from
// whichever machines (their devices are rows of their own, see Place).
struct MatrixColumn {
  std::string library;
  std::string version;
  std::vector<std::string> machines;  // the labels the profile reports give, sorted
  // With their kinds and days: "numpy.json (consume report, 2026-11-29)".
  std::vector<std::string> files;
  std::size_t cells = 0;  // its cells in the matrix (two inputs of one cell: one)

  std::string title() const;  // "numpy 2.4.6", "torch 2.11.0 (gpu)", "numpy 2.5.2 (ci, gpu)"
};

// Where the memory of a cell lives, named so that the devices of different
// machines line up: "host" (kDLCPU), "USM host", "USM device", "USM shared"
// (kDLOneAPI), "CUDA device", "CUDA host", "CUDA managed"; a device other
// than the runtime's first adds its index ("USM device #1", "#0.1" for a
// sub-device).
struct Place {
  std::string label;
  int order = 0;  // host first, then USM, then CUDA, then others
};
Place place_of(const ProfileCell& cell);

struct MatrixRow {
  std::string direction;
  std::string axis;
  std::string place;
  std::string value;
  std::vector<std::optional<ProfileCell>> cells;  // one per column; none: not measured

  // Every library measured the cell, with the same outcome and gate.
  bool agrees() const;
};

struct CompatibilityMatrix {
  std::vector<MatrixColumn> columns;  // by library, then version
  std::vector<MatrixRow> rows;        // by direction, axis, place, then as the inputs list them
  PairGrid pairs;                     // the handoffs, library by library

  // Rows where every library agrees can fold only where there are two or more.
  bool folds(const MatrixRow& row) const { return columns.size() > 1 && row.agrees(); }
  std::size_t folded_rows() const;
};

// How a rendering shows the matrix.
struct MatrixOptions {
  // Text and Markdown leave out (text) or tuck away (Markdown) the rows where
  // every library agrees; HTML always has them, collapsed by its script.
  bool fold = true;
  // Text: the columns its sentences and notes wrap to (0: none, one line
  // each). The table keeps its rows, a repro its line, to be copied whole.
  std::size_t width = 0;
};

// Inputs of one library (same name, as pip compares names, and version)
// share a column, whatever machine they come from;
// where two give the same cell, the worse one stands (matrix_outcomes.hpp),
// the first of equals. Deterministic for a given list of profiles.
CompatibilityMatrix build_matrix(std::vector<LibraryProfile> profiles);

// The symbol of the cell's outcome and its gate suffix: "-!", "C!!", "+".
std::string cell_mark(const ProfileCell& cell);
// What a reader wants to know about a cell beyond its symbol: the outcome,
// the status, the reason or exception, the worst finding with its rule. One
// line; the repro is separate.
std::string cell_note(const ProfileCell& cell);
// The cell's note without outcome and status: only what differs between
// cells of one outcome ("" where there is nothing to add).
std::string cell_detail(const ProfileCell& cell);

}  // namespace dlpack_usm::compat
