// "MAJOR.MINOR" as the one reader reads it: what it accepts, what it
// leaves after the minor, and which part it names when it refuses.
#include <gtest/gtest.h>

#include "dlpack/names.hpp"

namespace dlpack_usm::dlpack {
namespace {

using Problem = ReleaseText::Problem;

TEST(ReleaseText, ReadsMajorDotMinor) {
  ReleaseText read = parse_release("1.3");
  ASSERT_TRUE(read.release);
  EXPECT_EQ(*read.release, (Release{1, 3}));
  EXPECT_EQ(read.problem, Problem::none);
  EXPECT_EQ(read.major, "1");
  EXPECT_EQ(read.minor, "3");
  EXPECT_EQ(read.rest, "");
}

TEST(ReleaseText, ReadsEveryUint32) {
  EXPECT_EQ(parse_release("0.0").release, (Release{0, 0}));
  EXPECT_EQ(parse_release("4294967295.4294967295").release, (Release{4294967295u, 4294967295u}));
}

TEST(ReleaseText, LeavesWhatFollowsTheMinor) {
  ReleaseText read = parse_release("0.22.1");
  EXPECT_EQ(read.release, (Release{0, 22}));
  EXPECT_EQ(read.minor, "22.1");
  EXPECT_EQ(read.rest, ".1");
  EXPECT_EQ(parse_release("0.21dev0").rest, "dev0");
}

TEST(ReleaseText, NamesThePartThatIsWrong) {
  struct Case {
    const char* text;
    Problem problem;
  };
  for (const Case& c :
       {Case{"", Problem::no_dot}, Case{"1", Problem::no_dot}, Case{"one", Problem::no_dot},
        Case{".1", Problem::major_not_integer}, Case{"x.1", Problem::major_not_integer},
        Case{" 1.2", Problem::major_not_integer}, Case{"+1.2", Problem::major_not_integer},
        Case{"1x.2", Problem::major_not_integer},
        Case{"99999999999999999999.1", Problem::major_not_integer},
        Case{"1.", Problem::minor_not_integer}, Case{"1.x", Problem::minor_not_integer},
        Case{"1.+2", Problem::minor_not_integer},
        Case{"1.99999999999999999999", Problem::minor_not_integer},
        Case{"-1.2", Problem::out_of_range}, Case{"1.-2", Problem::out_of_range},
        Case{"4294967296.0", Problem::out_of_range}, Case{"0.4294967296", Problem::out_of_range}}) {
    ReleaseText read = parse_release(c.text);
    EXPECT_EQ(read.problem, c.problem) << c.text;
    EXPECT_FALSE(read.release) << c.text;
  }
}

TEST(ReleaseText, SplitsAtTheFirstDot) {
  ReleaseText read = parse_release("x.2.3");
  EXPECT_EQ(read.major, "x");
  EXPECT_EQ(read.minor, "2.3");
  // Out of range with a rest: the rest is read all the same.
  EXPECT_EQ(parse_release("99999999999.2.3").rest, ".3");
}

TEST(ReleaseText, ReadsWhatToStringWrites) {
  for (Release release : {kLastLegacyRelease, kModelRelease, Release{1, 0}}) {
    EXPECT_EQ(parse_release(to_string(release)).release, release);
  }
}

}  // namespace
}  // namespace dlpack_usm::dlpack
