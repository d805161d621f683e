#include "compat/formats/matrix_html.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compat/formats/matrix_page_assets.hpp"
#include "compat/formats/pair_grid_html.hpp"
#include "compat/matrix_outcomes.hpp"
#include "compat/matrix_summary.hpp"
#include "report/formats/xml_writer.hpp"

namespace dlpack_usm::compat {
namespace {

// Text and attribute values alike: markup and quotes escaped, what HTML
// cannot carry replaced (xml_writer.hpp).
std::string html(std::string_view text) {
  return report::xml_escape(text);
}

// Outcome names become class names only when the legend knows them.
std::string outcome_class(const std::string& outcome) {
  return matrix_outcome(outcome).name.empty() ? "unknown" : outcome;
}

std::string outcome_styles() {
  std::string css;
  for (const MatrixOutcome& outcome : matrix_outcomes()) {
    css += fmt::format(".o-{} {{ background: {}; color: {}; }}\n", outcome.name, outcome.background,
                       outcome.foreground);
  }
  const MatrixOutcome& unknown = matrix_outcome("");
  return css + fmt::format(".o-unknown {{ background: {}; color: {}; }}\n", unknown.background,
                           unknown.foreground);
}

std::string head() {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"dlpack-usm report matrix\">\n"
      "<title>DLPack compatibility matrix</title>\n<style>{}{}</style>\n</head>\n",
      kMatrixPageStyle, outcome_styles());
}

std::string introduction(const CompatibilityMatrix& matrix) {
  return fmt::format(
      "<body>\n<header>\n<h1>DLPack compatibility matrix</h1>\n<p class=\"note\">What each "
      "library does with the DLPack tensors it is handed (consumer) and asked for (producer), as "
      "dlpack-usm measured it: {} librar{}, {} rows, {} of "
      "them where every library agrees. Hover over or focus a cell for its reason, its worst "
      "finding and a command that reproduces it.</p>\n</header>\n",
      matrix.columns.size(), matrix.columns.size() == 1 ? "y" : "ies", matrix.rows.size(),
      matrix.folded_rows());
}

std::string legend_item(const MatrixOutcome& outcome) {
  std::string meaning;
  if (!outcome.consumer_meaning.empty()) meaning = "consumer: " + outcome.consumer_meaning;
  if (!outcome.producer_meaning.empty()) {
    meaning += (meaning.empty() ? "producer: " : "; producer: ") + outcome.producer_meaning;
  }
  return fmt::format(
      "<li data-outcome=\"{0}\"><span class=\"chip o-{0}\">{1}</span> <b>{0}</b> "
      "<small>{2}</small></li>\n",
      outcome.name, html(std::string(1, outcome.symbol)), html(meaning));
}

std::string html_legend() {
  std::string text =
      "<section id=\"legend\" aria-labelledby=\"legend-title\">\n<h2 id=\"legend-title\">Legend"
      "</h2>\n<ul class=\"legend\">\n";
  for (const MatrixOutcome& outcome : matrix_outcomes()) text += legend_item(outcome);
  return text +
         "</ul>\n<p class=\"note\">After the symbol: <b>!</b> the cell warns, <b>!!</b> it fails "
         "the gate (and has a frame). An empty cell was not measured; <b>?</b> is an outcome "
         "this dlpack-usm does not know; <b>&#8801;</b> marks a row where every library agrees. "
         "Memory: <i>host</i> is kDLCPU memory; <i>USM host</i>, <i>USM device</i> and <i>USM "
         "shared</i> are kDLOneAPI allocations on the runtime's first device, <i>CUDA "
         "device</i>, <i>CUDA host</i> and <i>CUDA managed</i> are kDLCUDA, kDLCUDAHost and "
         "kDLCUDAManaged memory; <i>#1</i> names another device, <i>#0.1</i> a sub-device.</p>\n"
         "</section>\n";
}

std::string html_libraries(const CompatibilityMatrix& matrix) {
  std::vector<ColumnSummary> summaries = summarize_columns(matrix);
  std::string text =
      "<section id=\"libraries\" aria-labelledby=\"libraries-title\">\n<h2 "
      "id=\"libraries-title\">Libraries and their reports</h2>\n<table "
      "class=\"inputs\">\n<thead><tr><th "
      "scope=\"col\">library</th><th scope=\"col\">producer cells</th><th scope=\"col\">"
      "consumer cells</th><th scope=\"col\">warn</th><th scope=\"col\">fail</th><th "
      "scope=\"col\">fails for (cells)</th><th scope=\"col\">from</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < matrix.columns.size(); ++i) {
    const ColumnSummary& summary = summaries[i];
    std::string files;
    for (const std::string& file : matrix.columns[i].files) {
      files += (files.empty() ? "" : "<br>") + html(file);
    }
    text += fmt::format(
        "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        html(matrix.columns[i].title()), summary.producer_cells, summary.consumer_cells,
        summary.warns, summary.fails, html(rule_counts(summary.failing_rules)), files);
  }
  return text + "</tbody>\n</table>\n</section>\n";
}

template <typename Values>
std::string select(const char* id, const char* label, const Values& values) {
  std::string text = fmt::format(
      "<label for=\"{0}\">{1}</label> <select id=\"{0}\"><option value=\"\">all</option>", id,
      label);
  for (const std::string& value : values) {
    text += fmt::format("<option value=\"{0}\">{0}</option>", html(value));
  }
  return text + "</select>\n";
}

// In the order the rows have them.
template <typename Key>
std::vector<std::string> distinct(const CompatibilityMatrix& matrix, Key key) {
  std::vector<std::string> values;
  for (const MatrixRow& row : matrix.rows) {
    std::string value = key(row);
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  return values;
}

std::vector<std::string> outcomes_present(const CompatibilityMatrix& matrix) {
  std::set<std::string> present;
  for (const MatrixRow& row : matrix.rows) {
    for (const auto& cell : row.cells) {
      if (cell) present.insert(outcome_class(cell->outcome));
    }
  }
  std::vector<std::string> ordered;
  for (const MatrixOutcome& outcome : matrix_outcomes()) {
    if (present.contains(outcome.name)) ordered.push_back(outcome.name);
  }
  if (present.contains("unknown")) ordered.emplace_back("unknown");
  return ordered;
}

std::string filters(const CompatibilityMatrix& matrix) {
  std::string text = "<form id=\"filters\" class=\"filters\" hidden aria-label=\"Filters\">\n";
  text += select("f-direction", "direction",
                 distinct(matrix, [](const MatrixRow& row) { return row.direction; }));
  text += select("f-axis", "axis", distinct(matrix, [](const MatrixRow& row) { return row.axis; }));
  text +=
      select("f-place", "memory", distinct(matrix, [](const MatrixRow& row) { return row.place; }));
  text += select("f-outcome", "outcome", outcomes_present(matrix));
  return text +
         "<label><input type=\"checkbox\" id=\"f-agree\"> rows where every library agrees"
         "</label>\n<output id=\"f-count\" aria-live=\"polite\"></output>\n</form>\n";
}

std::string cell_html(const MatrixColumn& column, const MatrixRow& row,
                      const std::optional<ProfileCell>& cell) {
  if (!cell) {
    return fmt::format("<td class=\"empty\" title=\"{}: not measured\"></td>",
                       html(column.title()));
  }
  std::string tip = fmt::format("{} — {} {} {}, {}\n{}", column.title(), row.direction, row.axis,
                                row.value, row.place, cell_note(*cell));
  if (!cell->repro.empty()) tip += "\nrepro: " + cell->repro;
  return fmt::format(
      "<td class=\"c o-{} g-{}\" tabindex=\"0\" data-outcome=\"{}\" title=\"{}\">{}</td>",
      outcome_class(cell->outcome), gate_name(cell_gate(cell->status)),
      outcome_class(cell->outcome), html(tip), html(cell_mark(*cell)));
}

std::string row_html(const CompatibilityMatrix& matrix, const MatrixRow& row) {
  std::set<std::string> outcomes;
  for (const auto& cell : row.cells) {
    if (cell) outcomes.insert(outcome_class(cell->outcome));
  }
  std::string text = fmt::format(
      "<tr class=\"row{}\" data-place=\"{}\" data-outcomes=\"{}\"><th scope=\"row\">{}</th>"
      "<td class=\"place\">{}</td>",
      matrix.folds(row) ? " agree" : "", html(row.place),
      html(fmt::format("{}", fmt::join(outcomes, " "))), html(row.value), html(row.place));
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    text += cell_html(matrix.columns[i], row, row.cells[i]);
  }
  return text + "</tr>\n";
}

std::string table_head(const CompatibilityMatrix& matrix) {
  std::string text =
      "<table id=\"matrix\">\n<thead><tr><th scope=\"col\">value</th><th scope=\"col\">memory"
      "</th>";
  for (const MatrixColumn& column : matrix.columns) {
    text += fmt::format("<th scope=\"col\" class=\"lib\">{}</th>", html(column.title()));
  }
  return text + "</tr></thead>\n";
}

std::string matrix_table(const CompatibilityMatrix& matrix) {
  std::string text = table_head(matrix);
  const MatrixRow* section = nullptr;
  for (const MatrixRow& row : matrix.rows) {
    if (!section || section->direction != row.direction || section->axis != row.axis) {
      text += fmt::format(
          "{}<tbody data-direction=\"{}\" data-axis=\"{}\">\n<tr class=\"section\"><th "
          "colspan=\"{}\" scope=\"rowgroup\">{} · {}</th></tr>\n",
          section ? "</tbody>\n" : "", html(row.direction), html(row.axis),
          matrix.columns.size() + 2, html(row.direction), html(row.axis));
      section = &row;
    }
    text += row_html(matrix, row);
  }
  return text + (section ? "</tbody>\n" : "") + "</table>\n";
}

}  // namespace

std::string matrix_to_html(const CompatibilityMatrix& matrix) {
  return head() + introduction(matrix) + pair_grid_html(matrix.pairs) + html_legend() +
         "<section id=\"cells\" aria-labelledby=\"cells-title\">\n<h2 id=\"cells-title\">Cells"
         "</h2>\n" +
         filters(matrix) + matrix_table(matrix) + "</section>\n" + html_libraries(matrix) +
         "<footer>Generated by <code>dlpack-usm report matrix</code>.</footer>\n"
         "<div id=\"tip\" role=\"tooltip\" hidden></div>\n<script>" +
         std::string(kMatrixPageScript) + std::string(pair_grid_script(matrix.pairs)) +
         "</script>\n</body>\n</html>\n";
}

}  // namespace dlpack_usm::compat
