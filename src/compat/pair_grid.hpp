// The pairwise grid of `report matrix`: who can hand tensors to whom. Each
// handoff a check report holds (check --python-handoff, dlpack-usm handoff)
// is one tensor handed from a producer library to a consumer library; the
// grid has a row per producer and a column per consumer (the same
// libraries in the same order, so that the diagonal is a library with
// itself), and each of its cells counts the tensors that worked, were
// declined and failed, with every handoff listed for its link.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dlpack_usm::compat {

// One tensor handed over, as the grid and the libraries' lines show it.
struct PairCase {
  std::string producer;  // "numpy 2.4.6"
  std::string consumer;  // "dpnp 0.20.0"
  std::string tensor;    // "c-order", "given", ...
  std::string result;    // "works", "declines" or "fails"
  std::string fault;     // a failure's: "producer", "consumer" or "" (unknown)
  std::string note;      // the worst finding, the decline's reason, or what happened
  std::string rule;      // the worst finding's rule id, if any
  std::string case_id;   // the step that decided it
  std::string repro;     // a command line that runs that step again
  std::string measured;  // the day its run started ("2026-11-29"), "" where unknown
};

struct PairCell {
  std::size_t works = 0;
  std::size_t declines = 0;
  std::size_t fails = 0;
  std::vector<std::size_t> cases;  // indices into PairGrid::cases

  std::size_t total() const { return works + declines + fails; }
  // "works", "declines", "mixed" (some work, some are declined), "fails"
  // (any failure), or "" where no tensor was handed over.
  std::string kind() const;
  // "3/3 work", "2 work, 1 declined", "1 of 4 fails".
  std::string text() const;
};

// What one library did on either side, in a line.
struct PairLibrary {
  std::string library;
  PairCell as_producer;               // every tensor it handed to any consumer
  PairCell as_consumer;               // every tensor it was handed by any producer
  std::vector<std::size_t> defects;   // failures that are its fault (indices into cases)
  std::vector<std::string> measured;  // the days its handoffs ran, sorted
};

struct PairGrid {
  std::vector<std::string> libraries;        // rows (producers) and columns (consumers)
  std::vector<std::vector<PairCell>> cells;  // [producer][consumer]
  std::vector<PairCase> cases;
  std::vector<PairLibrary> summaries;  // one per library, in its order

  bool empty() const { return cases.empty(); }
  // The anchor of a cell's list of handoffs: "pair-2-5".
  static std::string anchor(std::size_t producer, std::size_t consumer);
};

// Libraries sorted by name (as their titles read); cases kept in the order
// given. Deterministic for a given list.
PairGrid build_pair_grid(std::vector<PairCase> cases);

}  // namespace dlpack_usm::compat
