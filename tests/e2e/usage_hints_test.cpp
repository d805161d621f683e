// Usage errors as a user meets them: a typo of a command, an option or a
// value from a table is exit 2 naming what was typed and the closest names;
// a number out of range says its range in words; --help shows readable
// placeholders, check first, and examples.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

void expect_usage_error(const std::vector<std::string>& arguments, const std::string& message) {
  ToolResult result = run_tool(arguments);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("dlpack-usm: error: " + message), std::string::npos) << result.err;
}

TEST(UsageHints, AMistypedCommandIsOfferedTheClosest) {
  expect_usage_error({"chek"}, "unknown command 'chek' (did you mean 'check'?)");
  expect_usage_error({"report", "merg"}, "unknown command 'report merg' (did you mean 'merge'?)");
  expect_usage_error({"frobnicate"}, "unknown command 'frobnicate'\n");
}

TEST(UsageHints, AMistypedOptionIsOfferedTheClosest) {
  expect_usage_error({"check", "--repot", "r.json"},
                     "unknown option '--repot' of 'check' (did you mean '--report'?)");
  expect_usage_error({"list-devices", "--jsno"},
                     "unknown option '--jsno' of 'list-devices' (did you mean '--json'?)");
}

TEST(UsageHints, AnUnknownRuleIsAUsageErrorNamingIt) {
  expect_usage_error({"check", "--vectors-only", "--rule", "DLP-NOPE"},
                     "--rule \"DLP-NOPE\": no rule has this id");
  expect_usage_error({"check", "--vectors-only", "--rule", "DLP-STRIDES-NUL"},
                     "--rule \"DLP-STRIDES-NUL\": no rule has this id (did you mean "
                     "'DLP-STRIDES-NULL'");
  expect_usage_error({"explain", "DLP-STRIDES-NUL"},
                     "no rule has the id 'DLP-STRIDES-NUL' (did you mean 'DLP-STRIDES-NULL'");
  expect_usage_error({"rules", "--family", "cuad"},
                     "unknown rule family 'cuad' (did you mean 'cuda'?)");
}

TEST(UsageHints, AnUnknownDeviceIsAUsageErrorListingTheDevices) {
  ToolResult result = run_tool({"check", "--runtime", "opencl", "--device", "gpu"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--device \"gpu\": no device of this name"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("hint: the devices here: opencl:"), std::string::npos) << result.err;
}

// Every numeric option of every command: refused in words, never with
// CLI11's "Could not convert" or a range up to DBL_MAX's 309 digits.
TEST(UsageHints, NumbersOutOfRangeAreSaidInWords) {
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"check", "--jobs", "-1"}, "is not a number of jobs: give 1 to 4096, or 0 for one per CPU"},
      {{"check", "--jobs", "x"}, "is not a number of jobs"},
      {{"check", "--batch", "0"}, "is not a number of cases: give 1 to 100000"},
      {{"check", "--batch", "x"}, "is not a number of cases: give 1 to 100000"},
      {{"check", "--batch", "99999999999999999999"}, "is not a number of cases"},
      {{"check", "--timeout", "-1"}, "-1 is not between 0.01 and 86400 seconds"},
      {{"check", "--timeout", "x"}, "'x' is not a number of seconds"},
      {{"check", "--shard", "3/2"}, "is not I/N with 1 <= I <= N"},
      {{"exchange", "--sub-device", "-1"}, "is not a sub-device position"},
      {{"exchange", "--sub-device", "x"}, "is not a sub-device position"},
      {{"exchange", "--shape", "4,-1"}, "--shape extent -1 is negative"},
      {{"exchange", "--max-version", "9"}, "--max-version"},
  };
  for (const Case& c : cases) {
    ToolResult result = run_tool(c.arguments);
    SCOPED_TRACE(c.arguments[1] + " " + c.arguments[2]);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("Could not convert"), std::string::npos) << result.err;
    EXPECT_FALSE(std::regex_search(result.err, std::regex("[0-9]{21}"))) << result.err;
  }
}

TEST(UsageHints, HelpListsCheckFirstAndEndsWithExamples) {
  ToolResult help = run_tool({"--help"});
  ASSERT_EQ(help.exit_code, 0);
  std::size_t commands = help.out.find("Subcommands:\n");
  ASSERT_NE(commands, std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("  check ", commands), commands + 13) << help.out;
  std::size_t examples = help.out.find("\nExamples:\n");
  ASSERT_NE(examples, std::string::npos) << help.out;
  std::regex example("\n  dlpack-usm [a-z-]+[^\n]*");
  auto found =
      std::sregex_iterator(help.out.begin() + static_cast<long>(examples), help.out.end(), example);
  EXPECT_EQ(std::distance(found, std::sregex_iterator()), 3) << help.out;
  // Only the tool's own help has them; a command's help ends with the exit codes.
  ToolResult check_help = run_tool({"check", "--help"});
  EXPECT_EQ(check_help.out.find("Examples:"), std::string::npos) << check_help.out;
  EXPECT_NE(check_help.out.find("Exit codes: 0 ok"), std::string::npos) << check_help.out;
}

// Placeholders say what to type (--shard I/N, --timeout SECONDS), in the
// help of every command, not CLI11's TEXT, INT, UINT or FLOAT.
TEST(UsageHints, HelpPlaceholdersSayWhatToType) {
  std::vector<std::vector<std::string>> helps{
      {"check"}, {"list-devices"}, {"capsule", "dump"}, {"capsule", "check"},
      {"rules"}, {"explain"},      {"report", "merge"}, {"exchange"}};
  std::regex generic(R"(\b(TEXT|INT|UINT|FLOAT|BOOLEAN|NUMBER)\b)");
  for (std::vector<std::string> arguments : helps) {
    arguments.emplace_back("--help");
    ToolResult help = run_tool(arguments);
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_FALSE(std::regex_search(help.out, generic)) << help.out;
  }
  ToolResult check = run_tool({"check", "--help"});
  for (const char* placeholder : {"--shard I/N ", "--timeout SECONDS ", "--report FILE ",
                                  "--jobs N ", "--filter GLOB ...", "--producer LIB "}) {
    EXPECT_NE(check.out.find(placeholder), std::string::npos) << placeholder << "\n" << check.out;
  }
  ToolResult exchange = run_tool({"exchange", "--help"});
  // CLI11 2.3 (Debian 12) writes a default as "=float32", 2.4 (Ubuntu 24.04)
  // as " [float32]": either way after the placeholder.
  EXPECT_TRUE(exchange.out.find("--dtype DTYPE=float32 ") != std::string::npos ||
              exchange.out.find("--dtype DTYPE [float32] ") != std::string::npos)
      << exchange.out;
}

}  // namespace
}  // namespace dlpack_usm::e2e
