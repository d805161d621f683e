// The terminal's width as COLUMNS or the terminal gives it, and text cut to
// it without a mark and without breaking a character.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "common/terminal_width.hpp"
#include "common/text_width.hpp"

namespace dlpack_usm {
namespace {

class ColumnsVariable {
 public:
  explicit ColumnsVariable(const char* value) {
    if (const char* old = std::getenv("COLUMNS")) saved_ = old;
    if (value != nullptr) {
      setenv("COLUMNS", value, 1);
    } else {
      unsetenv("COLUMNS");
    }
  }
  ~ColumnsVariable() {
    if (saved_) {
      setenv("COLUMNS", saved_->c_str(), 1);
    } else {
      unsetenv("COLUMNS");
    }
  }

 private:
  std::optional<std::string> saved_;
};

TEST(TerminalWidth, ColumnsWinsWhereItIsANumber) {
  int not_a_terminal = open("/dev/null", O_WRONLY);
  ASSERT_GE(not_a_terminal, 0);
  {
    ColumnsVariable columns("100");
    EXPECT_EQ(terminal_width(not_a_terminal, 0), 100u);
    EXPECT_EQ(columns_setting(), 100u);
  }
  for (const char* wrong : {"", "0", "-3", "12x", "99999999999999999999"}) {
    ColumnsVariable columns(wrong);
    EXPECT_EQ(columns_setting(), 0u) << wrong;
    // Not a terminal, no COLUMNS: the caller's fallback (0: no limit).
    EXPECT_EQ(terminal_width(not_a_terminal, kDefaultColumns), kDefaultColumns) << wrong;
    EXPECT_EQ(terminal_width(not_a_terminal, 0), 0u) << wrong;
  }
  close(not_a_terminal);
}

// The progress line is cut with no mark: at the width exactly.
TEST(TerminalWidth, UnmarkedCutKeepsCharactersWhole) {
  EXPECT_EQ(cut_to_columns("[1/2] vector/x", 5, ""), "[1/2]");
  EXPECT_EQ(cut_to_columns("short", 80, ""), "short");
  // "ä" is two bytes and one column; it is kept whole or left out whole.
  EXPECT_EQ(cut_to_columns("a\u00e4b", 2, ""), "a\u00e4");
  EXPECT_EQ(cut_to_columns("a\u00e4b", 1, ""), "a");
}

}  // namespace
}  // namespace dlpack_usm
