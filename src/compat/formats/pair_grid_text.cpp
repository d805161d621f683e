#include "compat/formats/pair_grid_text.hpp"

#include <fmt/format.h>

#include "common/text_width.hpp"
#include "compat/formats/matrix_markdown.hpp"
#include "report/text_table.hpp"

namespace dlpack_usm::compat {
namespace {

constexpr const char* kGridNote =
    "Rows are producers, columns consumers (dlpack-usm handoff): a cell counts the tensors that "
    "worked (read back whole), were declined (a library may decline any tensor) and failed (a "
    "broken capsule, wrong data, a crash or hang).";

}  // namespace

std::string pair_library_line(const PairLibrary& library) {
  std::string emits = library.as_producer.total() == 0
                          ? "hands nothing over (no producer here)"
                          : "as producer " + library.as_producer.text();
  std::string accepts = library.as_consumer.total() == 0
                            ? "is handed nothing (no consumer here)"
                            : "as consumer " + library.as_consumer.text();
  std::string defects = library.defects.empty()
                            ? "no defect found"
                            : fmt::format("{} defect{} found", library.defects.size(),
                                          library.defects.size() == 1 ? "" : "s");
  std::string measured = library.measured.empty()
                             ? std::string()
                             : fmt::format("; measured {}", fmt::join(library.measured, ", "));
  return fmt::format("{}; {}; {}{}", emits, accepts, defects, measured);
}

std::string pair_defect_text(const PairCase& handed) {
  std::string what = handed.rule.empty() ? handed.note : handed.rule + ": " + handed.note;
  return fmt::format("{} ({} to {}, {}){}", what, handed.producer, handed.consumer, handed.tensor,
                     handed.repro.empty() ? "" : "; repro: " + handed.repro);
}

std::string pair_grid_text(const PairGrid& grid, std::size_t width) {
  if (grid.empty()) return {};
  std::vector<std::string> header{"producer \\ consumer"};
  header.insert(header.end(), grid.libraries.begin(), grid.libraries.end());
  report::TextTable table(header);
  // Fifteen libraries make no grid 80 columns hold: a record per producer.
  table.stack_when_too_wide();
  for (std::size_t p = 0; p < grid.libraries.size(); ++p) {
    std::vector<std::string> row{grid.libraries[p]};
    for (const PairCell& cell : grid.cells[p]) row.push_back(cell.text());
    table.add_row(std::move(row));
  }
  std::string text = "who can hand tensors to whom:\n" + wrap_after("", kGridNote, "", width) +
                     table.render("  ", width);
  for (const PairLibrary& library : grid.summaries) {
    text += wrap_after(fmt::format("  {}: ", library.library), pair_library_line(library), "    ",
                       width);
    for (std::size_t index : library.defects) {
      // The repro stays one line, whatever the width: it is pasted.
      PairCase handed = grid.cases[index];
      std::string repro = std::exchange(handed.repro, {});
      text += wrap_after("    - ", pair_defect_text(handed), "      ", width);
      if (!repro.empty()) text += fmt::format("      repro: {}\n", repro);
    }
  }
  return text + "\n";
}

std::string pair_grid_markdown(const PairGrid& grid) {
  if (grid.empty()) return {};
  std::vector<std::string> header{"producer \\\\ consumer"};
  std::vector<std::string> rule{"---"};
  for (const std::string& library : grid.libraries) {
    header.push_back(matrix_markdown_text(library));
    rule.emplace_back("---");
  }
  std::string text = fmt::format("## Who can hand tensors to whom\n\n{}\n\n", kGridNote) +
                     matrix_markdown_row(header) + matrix_markdown_row(rule);
  for (std::size_t p = 0; p < grid.libraries.size(); ++p) {
    std::vector<std::string> row{matrix_markdown_text(grid.libraries[p])};
    for (const PairCell& cell : grid.cells[p]) row.push_back(matrix_markdown_text(cell.text()));
    text += matrix_markdown_row(row);
  }
  text += "\n";
  for (const PairLibrary& library : grid.summaries) {
    text += fmt::format("- **{}**: {}\n", matrix_markdown_text(library.library),
                        matrix_markdown_text(pair_library_line(library)));
    for (std::size_t index : library.defects) {
      text += fmt::format("  - `{}`\n", pair_defect_text(grid.cases[index]));
    }
  }
  return text + "\n";
}

}  // namespace dlpack_usm::compat
