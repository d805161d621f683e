#include "compat/pair_grid.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace dlpack_usm::compat {
namespace {

void count(PairCell& cell, const PairCase& handed, std::size_t index) {
  if (handed.result == "works") {
    ++cell.works;
  } else if (handed.result == "declines") {
    ++cell.declines;
  } else {
    ++cell.fails;
  }
  cell.cases.push_back(index);
}

std::size_t index_of(const std::vector<std::string>& libraries, const std::string& library) {
  return static_cast<std::size_t>(std::lower_bound(libraries.begin(), libraries.end(), library) -
                                  libraries.begin());
}

// The day of a handoff among the library's days, once.
void note_day(PairLibrary& library, const std::string& day) {
  std::vector<std::string>& days = library.measured;
  auto at = std::lower_bound(days.begin(), days.end(), day);
  if (!day.empty() && (at == days.end() || *at != day)) days.insert(at, day);
}

// A failure is the defect of the library whose fault it is.
void note_defect(PairGrid& grid, const PairCase& handed, std::size_t index) {
  if (handed.result != "fails") return;
  const std::string& library = handed.fault == "producer"   ? handed.producer
                               : handed.fault == "consumer" ? handed.consumer
                                                            : std::string();
  if (library.empty()) return;
  grid.summaries[index_of(grid.libraries, library)].defects.push_back(index);
}

}  // namespace

std::string PairCell::kind() const {
  if (total() == 0) return {};
  if (fails > 0) return "fails";
  if (declines == 0) return "works";
  return works == 0 ? "declines" : "mixed";
}

std::string PairCell::text() const {
  if (total() == 0) return {};
  if (fails > 0) return fmt::format("{} of {} fail{}", fails, total(), fails == 1 ? "s" : "");
  if (declines == 0) return fmt::format("{}/{} work", works, total());
  if (works == 0) return fmt::format("{}/{} declined", declines, total());
  return fmt::format("{} work, {} declined", works, declines);
}

std::string PairGrid::anchor(std::size_t producer, std::size_t consumer) {
  return fmt::format("pair-{}-{}", producer, consumer);
}

PairGrid build_pair_grid(std::vector<PairCase> cases) {
  PairGrid grid;
  grid.cases = std::move(cases);
  for (const PairCase& handed : grid.cases) {
    grid.libraries.push_back(handed.producer);
    grid.libraries.push_back(handed.consumer);
  }
  std::sort(grid.libraries.begin(), grid.libraries.end());
  grid.libraries.erase(std::unique(grid.libraries.begin(), grid.libraries.end()),
                       grid.libraries.end());
  std::size_t size = grid.libraries.size();
  grid.cells.assign(size, std::vector<PairCell>(size));
  for (const std::string& library : grid.libraries) {
    PairLibrary summary;
    summary.library = library;
    grid.summaries.push_back(std::move(summary));
  }
  for (std::size_t i = 0; i < grid.cases.size(); ++i) {
    const PairCase& handed = grid.cases[i];
    std::size_t producer = index_of(grid.libraries, handed.producer);
    std::size_t consumer = index_of(grid.libraries, handed.consumer);
    count(grid.cells[producer][consumer], handed, i);
    count(grid.summaries[producer].as_producer, handed, i);
    count(grid.summaries[consumer].as_consumer, handed, i);
    note_day(grid.summaries[producer], handed.measured);
    note_day(grid.summaries[consumer], handed.measured);
    note_defect(grid, handed, i);
  }
  return grid;
}

}  // namespace dlpack_usm::compat
