// Outputs on hostile paths, through the real binary: a symbolic link
// another user planted in a sticky directory (the /tmp attack on a run as
// root), a report that is not a regular file (no results.jsonl in /dev), and
// a full disk under the results stream (no half line left behind).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

// A user that is not the caller, for links "planted" by someone else.
constexpr uid_t kOtherUser = 65534;  // nobody on Debian

class OutputHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("dlpack-usm-outputs-{}-{}", getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The quickest run that writes a report: one vector, no device.
  static ToolResult check(std::vector<std::string> extra) {
    std::vector<std::string> arguments{"check",  "--vectors-only", "--runtime",
                                       "opencl", "--filter",       "vector/shape/*"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return run_tool(arguments);
  }

  // A directory that is sticky and world-writable, as /tmp is, owned by `owner`.
  fs::path sticky_directory(const std::string& name, uid_t owner) {
    fs::path sticky = dir_ / name;
    fs::create_directories(sticky);
    EXPECT_EQ(chmod(sticky.c_str(), 01777), 0);
    EXPECT_EQ(lchown(sticky.c_str(), owner, owner), 0);
    return sticky;
  }

  // A link at `link` to `target`, owned by `owner` as if that user made it.
  static void plant_link(const fs::path& target, const fs::path& link, uid_t owner) {
    fs::create_symlink(target, link);
    ASSERT_EQ(lchown(link.c_str(), owner, owner), 0) << link;
  }

  fs::path dir_;
};

// Giving a link another owner takes root; the tests of a CI machine run as root.
#define REQUIRE_ROOT()                                                                          \
  if (geteuid() != 0) {                                                                         \
    GTEST_SKIP() << "needs root: only root can give a symbolic link another owner (lchown) to " \
                    "plant it as another user would";                                           \
  }

TEST_F(OutputHostile, ALinkAnotherUserPlantedInAStickyDirectoryIsRefused) {
  REQUIRE_ROOT();
  fs::path secret = dir_ / "shadow";
  std::ofstream(secret) << "root:secret\n";
  fs::path sticky = sticky_directory("tmp", 0);
  plant_link(secret, sticky / "report.json", kOtherUser);
  fs::create_directories(dir_ / "etc");
  plant_link(dir_ / "etc", sticky / "dir", kOtherUser);

  for (const auto& [option, target] : {std::pair{"--report", sticky / "report.json"},
                                       {"--junit", sticky / "report.json"},
                                       {"--stream", sticky / "report.json"},
                                       {"--failures", sticky / "dir" / "failures.txt"}}) {
    SCOPED_TRACE(option);
    ToolResult result = check({option, target.string()});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("is a symbolic link of user 65534 in the sticky, world-writable"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("protected_symlinks"), std::string::npos) << result.err;
    EXPECT_EQ(read_file(secret), "root:secret\n");
    EXPECT_TRUE(fs::is_symlink(sticky / "report.json"));
    EXPECT_FALSE(fs::exists(dir_ / "etc" / "failures.txt"));
  }
}

// Where protected_symlinks follows a link, so does the tool: the link is the
// caller's, or the directory's owner made it, or the directory is not sticky.
TEST_F(OutputHostile, ALinkIsFollowedWhereTheKernelWouldFollowIt) {
  REQUIRE_ROOT();
  struct Case {
    const char* what;
    fs::path directory;
    uid_t link_owner;
  };
  fs::path plain = dir_ / "plain";
  fs::create_directories(plain);
  for (const Case& link_case :
       {Case{"the caller's link", sticky_directory("tmp", 0), 0},
        Case{"the directory owner's link", sticky_directory("their-tmp", kOtherUser), kOtherUser},
        Case{"a link in a directory that is not sticky", plain, kOtherUser}}) {
    SCOPED_TRACE(link_case.what);
    fs::path target = link_case.directory / "target.json";
    std::ofstream(target) << "old";
    plant_link(target, link_case.directory / "report.json", link_case.link_owner);
    ToolResult result = check({"--report", (link_case.directory / "report.json").string()});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::is_symlink(link_case.directory / "report.json"));
    EXPECT_NE(read_file(target).find("\"schema\""), std::string::npos);
  }
}

// results.jsonl goes beside a report of its own, not into /dev beside
// /dev/null.
TEST_F(OutputHostile, NoResultsStreamBesideAReportThatIsNotARegularFile) {
  fs::create_symlink("/dev/null", dir_ / "null.json");
  ToolResult linked = check({"--report", (dir_ / "null.json").string()});
  EXPECT_EQ(linked.exit_code, 0) << linked.err;
  EXPECT_FALSE(fs::exists(dir_ / "results.jsonl"));

  bool there_before = fs::exists("/dev/results.jsonl");
  ToolResult devnull = check({"--report", "/dev/null"});
  EXPECT_EQ(devnull.exit_code, 0) << devnull.err;
  if (!there_before) {
    EXPECT_FALSE(fs::exists("/dev/results.jsonl"));
  }

  ToolResult regular = check({"--report", (dir_ / "report.json").string()});
  EXPECT_EQ(regular.exit_code, 0) << regular.err;
  EXPECT_TRUE(fs::exists(dir_ / "results.jsonl"));
}

// A file size limit (RLIMIT_FSIZE) stands in for a full disk: the write that
// crosses it is cut short, then refused.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    // Ignored, SIGXFSZ stays ignored in the child: the write fails with EFBIG.
    previous_ = signal(SIGXFSZ, SIG_IGN);
    rlimit limit{bytes, saved_.rlim_max};
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    signal(SIGXFSZ, previous_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  sighandler_t previous_ = SIG_DFL;
};

TEST_F(OutputHostile, AFullDiskLeavesTheStreamEndingWithItsLastWholeLine) {
  fs::path stream = dir_ / "results.jsonl";
  ToolResult result;
  {
    FileSizeLimit limit(1500);  // a few lines of the shape vectors
    result = check({"--stream", stream.string(), "--jobs", "1"});
  }
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("cannot write the results stream"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the lines written so far are complete"), std::string::npos);
  std::string text = read_file(stream);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << text;
  std::istringstream lines(text);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
  }
  EXPECT_GT(count, 0u);
}

}  // namespace
}  // namespace dlpack_usm::e2e
