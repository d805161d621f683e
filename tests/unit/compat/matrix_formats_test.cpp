// The three renderings of the compatibility matrix on what reports can
// carry: library messages are untrusted text, so each rendering escapes
// them for its medium (terminal, Markdown, HTML), and folds what agrees.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "common/text_width.hpp"
#include "compat/formats/matrix_html.hpp"
#include "compat/formats/matrix_markdown.hpp"
#include "compat/formats/matrix_text.hpp"

namespace dlpack_usm::compat {
namespace {

constexpr const char* kHostile =
    "BufferError: <script>window.__pwned = 1</script> | *bold* [link](x) `tick` \x1b[31mred";

ProfileCell declined(std::string reason) {
  ProfileCell cell;
  cell.direction = "consumer";
  cell.device = "opencl:cpu:0";
  cell.memory = "device-usm";
  cell.axis = "dtype";
  cell.value = "int8";
  cell.outcome = "declined";
  cell.status = "warn";
  cell.reason = std::move(reason);
  cell.repro = "python3 -m dlpack_usm consume 'x|y' --cell dtype-int8";
  return cell;
}

ProfileCell accepted(std::string value) {
  ProfileCell cell = declined("");
  cell.value = std::move(value);
  cell.memory = "cpu";
  cell.device = "cpu";
  cell.outcome = "accepted";
  cell.status = "pass";
  return cell;
}

// Two libraries that differ on the USM row (one's decline warns, the
// other's does not) and agree on the host row.
CompatibilityMatrix sample() {
  ProfileCell clean_decline = declined("TypeError");
  clean_decline.status = "not_supported";
  LibraryProfile a{"a.json", "consume report", "alib", "1.0", "", "", {}, false, {}};
  a.cells = {declined(kHostile), accepted("int8")};
  LibraryProfile b{"b.json", "profile report", "blib", "2.0", "gpu", "2026-11-28", {}, false, {}};
  b.cells = {clean_decline, accepted("int8")};
  return build_matrix({a, b});
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t found = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++found;
  }
  return found;
}

TEST(MatrixText, TerminalControlBytesAreEscapedAndAgreeingRowsFolded) {
  std::string folded = matrix_to_text(sample(), {});
  EXPECT_EQ(folded.find('\x1b'), std::string::npos);
  EXPECT_NE(folded.find("\\x1B[31mred"), std::string::npos);
  EXPECT_NE(folded.find("1 where every library agrees are folded (--no-fold shows them)"),
            std::string::npos)
      << folded;
  EXPECT_NE(folded.find("blib 2.0 (gpu)"), std::string::npos);
  EXPECT_EQ(count(folded, "host"), 0u) << folded;  // the one row on host agrees
  std::string unfolded = matrix_to_text(sample(), {.fold = false});
  EXPECT_NE(unfolded.find("host"), std::string::npos);
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(MatrixText, AWidthWrapsTheHeadlineAndNotesButNotARepro) {
  std::string whole = matrix_to_text(sample(), {});
  std::string fitted = matrix_to_text(sample(), {.width = 40});
  std::size_t notes = fitted.find("\nnotes:\n");
  ASSERT_NE(notes, std::string::npos) << fitted;
  // The headline, then the notes.
  std::istringstream lines(fitted.substr(0, fitted.find('\n') + 1) + fitted.substr(notes + 1));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("repro: ") == std::string::npos) {
      EXPECT_LE(line.size(), 40u) << line;
    }
  }
  // The repro stays one line, to be copied whole.
  EXPECT_NE(fitted.find("repro: python3 -m dlpack_usm consume 'x|y' --cell dtype-int8\n"),
            std::string::npos)
      << fitted;
  // Without a width, a note and a sentence stay one line each.
  EXPECT_NE(whole.find("a number is its note below. Blank: not measured.\n"), std::string::npos);
  EXPECT_EQ(fitted.find("a number is its note below. Blank: not measured.\n"), std::string::npos);
  EXPECT_GT(line_count(fitted), line_count(whole));
}

// At a width too narrow for the libraries' names the cells table heads its
// columns with letters, which the libraries table names, and comes in parts
// that fit; nothing a person reads is wider than the width but a repro, and
// without a width the table is as it was, one part with the names.
TEST(MatrixText, ANarrowWidthLettersTheLibrariesAndSplitsTheTable) {
  std::string whole = matrix_to_text(sample(), {.fold = false});
  EXPECT_EQ(whole.find("columns A-"), std::string::npos) << whole;
  EXPECT_NE(whole.find("alib 1.0  blib 2.0 (gpu)"), std::string::npos) << whole;
  std::string fitted = matrix_to_text(sample(), {.fold = false, .width = 40});
  // The libraries table says which letter is which library.
  EXPECT_NE(fitted.find("\n  A\n      library: alib 1.0\n"), std::string::npos) << fitted;
  EXPECT_NE(fitted.find("consumer dtype:"), std::string::npos) << fitted;
  EXPECT_NE(fitted.find("\ncolumns A-B of 2:\nvalue"), std::string::npos) << fitted;
  std::istringstream lines(fitted);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("repro: ") == std::string::npos) {
      EXPECT_LE(display_columns(line), 40u) << line << "\n" << fitted;
    }
  }
}

TEST(MatrixMarkdown, TextIsEscapedAndAgreeingRowsGoIntoDetails) {
  EXPECT_EQ(matrix_markdown_text("<b>|*x*_[y](z)&"), "&lt;b&gt;\\|\\*x\\*\\_\\[y\\](z)&amp;");
  EXPECT_EQ(markdown_code("a`b", false), "``a`b``");
  EXPECT_EQ(markdown_code("`a", false), "`` `a ``");
  EXPECT_EQ(markdown_code("x|y", true), "`x\\|y`");
  std::string page = matrix_to_markdown(sample(), {});
  EXPECT_EQ(page.find("<script>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(page.find("<details><summary>1 row where every library agrees</summary>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("| int8 | USM device | `-!`[^1] | `-`[^2] |"), std::string::npos) << page;
  EXPECT_NE(page.find("Repro: `python3 -m dlpack_usm consume 'x|y' --cell dtype-int8`"),
            std::string::npos);
  std::string summary = matrix_summary_to_markdown(sample());
  EXPECT_NE(summary.find("| alib 1.0 | 0 | 2 | 1 | 0 | 1 | 0 |"), std::string::npos) << summary;
}

TEST(MatrixHtml, ReportTextNeverBecomesMarkupAndThePageLoadsNothing) {
  std::string page = matrix_to_html(sample());
  EXPECT_EQ(count(page, "<script"), 1u);  // the page's own
  EXPECT_EQ(page.find("window.__pwned = 1</script>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;window.__pwned = 1&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(page.find('\x1b'), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("href="), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  // A real table without the script: the two libraries, the legend, the symbols.
  EXPECT_EQ(count(page, "<th scope=\"col\" class=\"lib\">"), 2u);
  EXPECT_NE(page.find("<th scope=\"col\" class=\"lib\">blib 2.0 (gpu)</th>"), std::string::npos);
  // Each column's version and machine (its title) and the day it was measured.
  EXPECT_NE(page.find("b.json (profile report, 2026-11-28)"), std::string::npos);
  EXPECT_NE(page.find("a.json (consume report)"), std::string::npos);  // no day known
  EXPECT_NE(page.find("<section id=\"legend\""), std::string::npos);
  EXPECT_NE(page.find(">-!</td>"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"row agree\""), std::string::npos);
  EXPECT_NE(page.find("title=\"alib 1.0 — consumer dtype int8, USM device\ndeclined (warn): "),
            std::string::npos);
}

}  // namespace
}  // namespace dlpack_usm::compat
