// The terminal's width as COLUMNS or the terminal gives it, and text cut to
// it without breaking a character.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "common/terminal_width.hpp"

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
    EXPECT_EQ(terminal_columns(not_a_terminal), 100u);
  }
  for (const char* wrong : {"", "0", "-3", "12x", "99999999999999999999"}) {
    ColumnsVariable columns(wrong);
    EXPECT_EQ(terminal_columns(not_a_terminal), kDefaultColumns) << wrong;
  }
  close(not_a_terminal);
}

TEST(TerminalWidth, CutsAtCharactersNotBytes) {
  EXPECT_EQ(truncate_to_columns("[1/2] vector/x", 5), "[1/2]");
  EXPECT_EQ(truncate_to_columns("short", 80), "short");
  // "ä" is two bytes and one column; it is kept whole or left out whole.
  EXPECT_EQ(truncate_to_columns("a\u00e4b", 2), "a\u00e4");
  EXPECT_EQ(truncate_to_columns("a\u00e4b", 1), "a");
  EXPECT_EQ(truncate_to_columns("abc", 0), "");
}

}  // namespace
}  // namespace dlpack_usm
