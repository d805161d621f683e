#include "compat/formats/pair_grid_html.hpp"

#include <fmt/format.h>

#include "compat/formats/pair_grid_text.hpp"
#include "report/formats/xml_writer.hpp"

namespace dlpack_usm::compat {
namespace {

std::string escaped(std::string_view text) {
  return report::xml_escape(text);
}

constexpr std::string_view kPairStyle = R"CSS(
table.pairs { margin: 0.5rem 0; }
table.pairs th, table.pairs td { border: 1px solid #c8ccd4; text-align: center; }
table.pairs thead th { background: #2b3442; color: #fff; }
table.pairs tbody th { text-align: left; background: #f3f5f8; }
td.pair a { color: inherit; text-decoration: none; display: block; font-weight: 600; }
td.pair a:focus, td.pair a:hover { text-decoration: underline; }
td.p-works { background: #c6efce; color: #0b4f18; }
td.p-mixed { background: #e6f2c2; color: #3c4f0b; }
td.p-declines { background: #fff2cc; color: #5c4500; }
td.p-fails { background: #f8c7c3; color: #7a0c02; box-shadow: inset 0 0 0 2px currentColor; }
td.p-none { background: #fff; color: #999; }
table.pairs.failing-only td.pair:not(.p-fails) a { visibility: hidden; }
ul.pair-lines li { margin: 2px 0; }
details.pair { margin: 2px 0; }
details.pair:target, details.pair[open] { background: #f7f9fc; }
)CSS";

constexpr std::string_view kPairScript = R"JS(
(function () {
  "use strict";
  var grid = document.getElementById("pair-grid");
  var only = document.getElementById("pairs-failing");
  var filter = document.getElementById("pair-filter");
  if (!grid || !only || !filter) return;
  filter.hidden = false;
  only.addEventListener("change", function () {
    grid.classList.toggle("failing-only", only.checked);
  });
  // A cell's link opens the list of its handoffs.
  function openTarget() {
    var id = location.hash.slice(1);
    var target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") target.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
)JS";

std::string grid_table(const PairGrid& grid) {
  std::string text =
      "<table class=\"pairs\" id=\"pair-grid\">\n<thead><tr><th scope=\"col\">producer \\ "
      "consumer</th>";
  for (const std::string& library : grid.libraries) {
    text += fmt::format("<th scope=\"col\">{}</th>", escaped(library));
  }
  text += "</tr></thead>\n<tbody>\n";
  for (std::size_t p = 0; p < grid.libraries.size(); ++p) {
    text += fmt::format("<tr><th scope=\"row\">{}</th>", escaped(grid.libraries[p]));
    for (std::size_t c = 0; c < grid.libraries.size(); ++c) {
      const PairCell& cell = grid.cells[p][c];
      if (cell.total() == 0) {
        text += "<td class=\"pair p-none\" title=\"not measured\"></td>";
        continue;
      }
      text += fmt::format(
          "<td class=\"pair p-{0}\" data-result=\"{0}\" title=\"{1} to {2}: {3} worked, {4} "
          "declined, {5} failed\"><a href=\"#{6}\">{7}</a></td>",
          cell.kind(), escaped(grid.libraries[p]), escaped(grid.libraries[c]), cell.works,
          cell.declines, cell.fails, PairGrid::anchor(p, c), escaped(cell.text()));
    }
    text += "</tr>\n";
  }
  return text + "</tbody>\n</table>\n";
}

std::string library_lines(const PairGrid& grid) {
  std::string text = "<ul class=\"pair-lines\">\n";
  for (const PairLibrary& library : grid.summaries) {
    text += fmt::format("<li><b>{}</b>: {}", escaped(library.library),
                        escaped(pair_library_line(library)));
    if (!library.defects.empty()) {
      text += "<ul>";
      for (std::size_t index : library.defects) {
        text +=
            fmt::format("<li><code>{}</code></li>", escaped(pair_defect_text(grid.cases[index])));
      }
      text += "</ul>";
    }
    text += "</li>\n";
  }
  return text + "</ul>\n";
}

std::string pair_details(const PairGrid& grid) {
  std::string text;
  for (std::size_t p = 0; p < grid.libraries.size(); ++p) {
    for (std::size_t c = 0; c < grid.libraries.size(); ++c) {
      const PairCell& cell = grid.cells[p][c];
      if (cell.total() == 0) continue;
      text += fmt::format("<details class=\"pair\" id=\"{}\"><summary>{} to {}: {}</summary><ul>",
                          PairGrid::anchor(p, c), escaped(grid.libraries[p]),
                          escaped(grid.libraries[c]), escaped(cell.text()));
      for (std::size_t index : cell.cases) {
        const PairCase& handed = grid.cases[index];
        text += fmt::format("<li data-result=\"{}\">{}: <b>{}</b> — {} <small>({})</small></li>",
                            escaped(handed.result), escaped(handed.tensor), escaped(handed.result),
                            escaped(handed.note), escaped(handed.case_id));
      }
      text += "</ul></details>\n";
    }
  }
  return text;
}

}  // namespace

std::string pair_grid_html(const PairGrid& grid) {
  if (grid.empty()) return {};
  return fmt::format(
      "<style>{}</style>\n<section id=\"pairs\" aria-labelledby=\"pairs-title\">\n<h2 "
      "id=\"pairs-title\">Who can hand tensors to whom</h2>\n<p class=\"note\">Each library's "
      "tensors handed to each library's from_dlpack (dlpack-usm handoff): rows are producers, "
      "columns consumers; a cell counts the tensors that worked (read back whole), were declined "
      "(a library may decline any tensor) and failed (a broken capsule, wrong data, a crash or "
      "hang). Follow a cell to its handoffs.</p>\n<p id=\"pair-filter\" hidden><label><input "
      "type=\"checkbox\" id=\"pairs-failing\"> pairs with a failure only</label></p>\n{}"
      "<h3>Library by library</h3>\n{}<h3>Every handoff</h3>\n{}</section>\n",
      kPairStyle, grid_table(grid), library_lines(grid), pair_details(grid));
}

std::string_view pair_grid_script(const PairGrid& grid) {
  return grid.empty() ? std::string_view() : kPairScript;
}

}  // namespace dlpack_usm::compat
