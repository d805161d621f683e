// Lines fitted to a terminal: counted in code points, cut with an ellipsis
// that keeps UTF-8 whole, wrapped at blanks with long words split.
#include <gtest/gtest.h>

#include "common/text_width.hpp"

namespace dlpack_usm {
namespace {

using Lines = std::vector<std::string>;

TEST(TextWidth, ColumnsCountCodePointsNotBytes) {
  EXPECT_EQ(display_columns(""), 0u);
  EXPECT_EQ(display_columns("opencl:cpu:0"), 12u);
  EXPECT_EQ(display_columns("a…b"), 3u);
  EXPECT_EQ(display_columns("\xc3\xa9t\xc3\xa9"), 3u);  // "été"
}

TEST(TextWidth, CutKeepsShortTextAndEndsLongTextWithAnEllipsis) {
  EXPECT_EQ(cut_to_columns("Intel Xeon", 10), "Intel Xeon");
  EXPECT_EQ(cut_to_columns("Intel Xeon", 0), "Intel Xeon");
  EXPECT_EQ(cut_to_columns("Intel Xeon Processor", 10), "Intel Xeo…");
  // A blank before the ellipsis goes: "Intel…", not "Intel …".
  EXPECT_EQ(cut_to_columns("Intel Xeon", 7), "Intel…");
  EXPECT_EQ(display_columns(cut_to_columns("Intel Xeon Processor", 10)), 10u);
  EXPECT_EQ(cut_to_columns("abc", 1), "…");
}

TEST(TextWidth, CutNeverSplitsAUtf8Sequence) {
  std::string text = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";  // four "é"
  EXPECT_EQ(cut_to_columns(text, 3), "\xc3\xa9\xc3\xa9…");
}

TEST(TextWidth, WrapBreaksAtBlanksWithinTheWidth) {
  EXPECT_EQ(wrap_to_columns("one two three four", 9, 9), (Lines{"one two", "three", "four"}));
  EXPECT_EQ(wrap_to_columns("one two three four", 0, 0), (Lines{"one two three four"}));
  EXPECT_EQ(wrap_to_columns("short", 80, 80), (Lines{"short"}));
  EXPECT_EQ(wrap_to_columns("", 80, 80), (Lines{""}));
}

TEST(TextWidth, WrapGivesTheFirstLineItsOwnWidth) {
  EXPECT_EQ(wrap_to_columns("aaa bbb ccc ddd", 3, 7), (Lines{"aaa", "bbb ccc", "ddd"}));
}

TEST(TextWidth, WrapKeepsAWordWiderThanALineWholeOnALineOfItsOwn) {
  EXPECT_EQ(wrap_to_columns("x /a/very/long/path y", 6, 6), (Lines{"x", "/a/very/long/path", "y"}));
  EXPECT_EQ(wrap_to_columns("/a/very/long/path", 6, 6), (Lines{"/a/very/long/path"}));
}

TEST(TextWidth, WrapKeepsLeadingBlanksAndDropsBlanksAtBreaks) {
  EXPECT_EQ(wrap_to_columns("  ab cd", 80, 80), (Lines{"  ab cd"}));
  EXPECT_EQ(wrap_to_columns("  ab cd", 5, 5), (Lines{"  ab", "cd"}));
  EXPECT_EQ(wrap_to_columns("ab  cd", 80, 80), (Lines{"ab  cd"}));
  EXPECT_EQ(wrap_to_columns("ab    cd", 3, 3), (Lines{"ab", "cd"}));
}

// Every line fits, but for a word wider than the line, which is the line.
TEST(TextWidth, EveryWrappedLineFits) {
  std::string text =
      "runtime sycl; kDLOneAPI device ids: ordering model 'sycl-get-devices' (SYCL's own "
      "sycl::device::get_devices() order, read through dpctl's C interface)";
  for (std::size_t width : {1u, 2u, 7u, 20u, 41u, 100u}) {
    std::string rejoined;
    for (const std::string& line : wrap_to_columns(text, width, width)) {
      bool one_word = line.find(' ') == std::string::npos;
      EXPECT_TRUE(display_columns(line) <= width || one_word) << line;
      EXPECT_FALSE(line.empty());
      rejoined += (rejoined.empty() ? "" : " ") + line;
    }
    EXPECT_EQ(rejoined, text);
  }
}

TEST(TextWidth, WrapAfterStartsWithThePrefixAndIndentsTheRest) {
  EXPECT_EQ(wrap_after("  1  ", "numpy: declined it twice", "     ", 0),
            "  1  numpy: declined it twice\n");
  EXPECT_EQ(wrap_after("  1  ", "numpy: declined it twice", "     ", 20),
            "  1  numpy: declined\n     it twice\n");
  // A prefix wider than the line still leaves a few columns for words.
  EXPECT_EQ(wrap_after("0123456789", "one two three", "    ", 12),
            "0123456789one two\n    three\n");
}

}  // namespace
}  // namespace dlpack_usm
