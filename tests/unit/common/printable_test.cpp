// The escaping of text from outside the tool (issue 36): what a library, a
// driver or an edited report says reaches a terminal or a CI log as text
// only, never as a control sequence or a workflow command.
#include "common/printable.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace dlpack_usm {
namespace {

TEST(Printable, PlainTextAndWellFormedUtf8StayAsTheyAre) {
  EXPECT_EQ(printable("float32 on opencl:cpu:0 # a note"), "float32 on opencl:cpu:0 # a note");
  EXPECT_EQ(printable("std::vector \u00e9\u4e2d"), "std::vector \u00e9\u4e2d");
}

TEST(Printable, C0ControlsAndBytesThatAreNotUtf8BecomeHexEscapes) {
  EXPECT_EQ(printable("a\nb\x1b[31m"), "a\\x0Ab\\x1B[31m");
  EXPECT_EQ(printable("\xff\xc0\x80"), "\\xFF\\xC0\\x80");
}

TEST(Printable, C1ControlsAndBidiOverridesBecomeCodePoints) {
  // U+009B is a CSI a terminal obeys; U+202E reverses what a reader sees;
  // U+0085 and U+2028 end lines in some viewers; U+FFFE/FFFF break XML.
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u{009B}31m");
  EXPECT_EQ(printable("ok\xe2\x80\xaetxt.exe"), "ok\\u{202E}txt.exe");
  EXPECT_EQ(printable("a\xc2\x85"
                      "b\xe2\x80\xa8"
                      "c"),
            "a\\u{0085}b\\u{2028}c");
  EXPECT_EQ(printable("\xef\xbf\xbe\xef\xbf\xbf"), "\\u{FFFE}\\u{FFFF}");
}

TEST(Printable, GithubWorkflowCommandsAreNeutralised) {
  // The legacy form anywhere in a line, the current one at its start.
  std::string masked = printable("error ##[add-mask]FAILED and ##[endgroup]");
  EXPECT_EQ(masked.find("##["), std::string::npos) << masked;
  EXPECT_EQ(masked, "error \\x23#[add-mask]FAILED and \\x23#[endgroup]");
  EXPECT_EQ(printable("::error::forged"), "\\x3A:error::forged");
  EXPECT_EQ(printable("a ::stop-commands:: in a line"), "a ::stop-commands:: in a line");
  EXPECT_EQ(printable("###[x]").find("##["), std::string::npos);
}

TEST(Printable, QuotedMessagesAreCutWithTheirLength) {
  EXPECT_EQ(quote_for_message("abcdef", 3), "\"abc\" (cut; 6 bytes in all)");
  EXPECT_EQ(quote_for_message("##[x]"), "\"\\x23#[x]\"");
}

// Plain text is passed over eight bytes at a time: a byte to escape is
// found wherever it falls in a word (its first byte, its last, the tail).
TEST(Printable, ABytesEscapeDoesNotDependOnWhereItFallsInAWord) {
  const std::pair<std::string, std::string> escapes[] = {{"\x01", "\\x01"}, {"\x1f", "\\x1F"},
                                                         {"\x7f", "\\x7F"}, {"\xff", "\\xFF"},
                                                         {"\x80", "\\x80"}, {"##[", "\\x23#["}};
  for (const auto& [raw, shown] : escapes) {
    for (std::size_t at = 0; at < 19; ++at) {
      std::string before(at, 'a');
      std::string after(19 - at, 'b');
      EXPECT_EQ(printable(before + raw + after), before + shown + after) << at;
    }
  }
  for (std::size_t at = 0; at < 19; ++at) {
    std::string before(at, 'a');
    EXPECT_EQ(quote_for_message(before + "\"" + "b"), "\"" + before + "\\\"b\"") << at;
    EXPECT_EQ(printable(before + "\"#b"), before + "\"#b") << at;
  }
}

}  // namespace
}  // namespace dlpack_usm
