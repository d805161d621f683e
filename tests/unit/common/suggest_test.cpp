// "Did you mean": close names are offered, closest first; a wild guess is
// not; case is ignored; the sentence names one, two or three of them.
#include <gtest/gtest.h>

#include "common/suggest.hpp"

namespace dlpack_usm {
namespace {

using Names = std::vector<std::string>;

const Names kCommands{"check", "list-devices", "exchange", "capsule", "rules", "explain", "report"};

TEST(Suggest, ATypoOfACommandFindsIt) {
  EXPECT_EQ(closest_names("chek", kCommands), (Names{"check"}));
  EXPECT_EQ(closest_names("ruels", kCommands), (Names{"rules"}));  // neighbours swapped
  EXPECT_EQ(closest_names("list-device", kCommands), (Names{"list-devices"}));
  EXPECT_EQ(closest_names("CHECK", kCommands), (Names{"check"}));
}

TEST(Suggest, NothingCloseOffersNothing) {
  EXPECT_TRUE(closest_names("frobnicate", kCommands).empty());
  EXPECT_TRUE(closest_names("gpu", {"opencl:cpu:0", "opencl:cpu:1"}).empty());
  EXPECT_TRUE(closest_names("", kCommands).empty());
  EXPECT_EQ(did_you_mean("frobnicate", kCommands), "");
}

TEST(Suggest, OptionsAreFoundWithTheirDashes) {
  Names options{"--report", "--junit", "--failures", "--rule", "--strict"};
  EXPECT_EQ(closest_names("--repot", options), (Names{"--report"}));
  EXPECT_EQ(did_you_mean("--repot", options), " (did you mean '--report'?)");
}

TEST(Suggest, ClosestComeFirstAndTheLimitHolds) {
  Names dtypes{"float16", "float32", "float64", "complex128", "int32"};
  EXPECT_EQ(closest_names("float33", dtypes).front(), "float32");
  Names some = closest_names("float128", dtypes);
  ASSERT_FALSE(some.empty());
  EXPECT_LE(some.size(), 3u);
  EXPECT_EQ(closest_names("float128", dtypes, 1).size(), 1u);
}

TEST(Suggest, TheSentenceListsTwoWithOrAndThreeWithCommas) {
  EXPECT_EQ(did_you_mean("int3", {"int8", "int32"}), " (did you mean 'int8' or 'int32'?)");
  EXPECT_EQ(did_you_mean("cpu", {"gpu", "cpa", "cpus"}), " (did you mean 'gpu', 'cpa' or 'cpus'?)");
}

TEST(Suggest, ACandidateListedTwiceIsOfferedOnce) {
  EXPECT_EQ(closest_names("chek", {"check", "check"}), (Names{"check"}));
}

}  // namespace
}  // namespace dlpack_usm
