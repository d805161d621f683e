// Entries of --baseline and --flakes that name no case of the suite: a
// renamed case or a typo would expect nothing without a word, so each file
// with such entries gets a warning that lists them.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "suite/model/expectations.hpp"

namespace dlpack_usm::suite {
namespace {

TEST(UnmatchedEntries, AWarningPerFileListsTheEntriesNoCaseHas) {
  std::vector<ExpectationFile> files{
      parse_expectation_text("vector/a\nvector/typo\n", "ci/baseline.txt", "baseline"),
      parse_expectation_text("# all known\nvector/a\n", "ci/flakes.txt", "flakes"),
      parse_expectation_text("live/gone\n", "ci/old-flakes.txt", "flakes")};
  std::vector<std::string> warnings = unmatched_entry_warnings(files, {"vector/a", "vector/b"});
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "--baseline ci/baseline.txt: 1 entry names no case of the suite, and expects nothing: "
            "vector/typo");
  EXPECT_EQ(warnings[1],
            "--flakes ci/old-flakes.txt: 1 entry names no case of the suite, and excuses "
            "nothing: live/gone");
}

TEST(UnmatchedEntries, ALongListIsCut) {
  std::string text;
  for (int i = 0; i < 14; ++i) text += fmt::format("vector/gone-{:02}\n", i);
  std::vector<std::string> warnings =
      unmatched_entry_warnings({parse_expectation_text(text, "b.txt", "baseline")}, {});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("b.txt: 14 entries name no case"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("vector/gone-09 and 4 more"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find("vector/gone-10"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace dlpack_usm::suite
