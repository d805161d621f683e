// Where an output goes: a bare file name is a file of the working directory
// (its parent is "."), replaced atomically like any other regular file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace dlpack_usm {
namespace {

namespace fs = std::filesystem;

class OutputPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = fs::current_path();
    dir_ = fs::temp_directory_path() / fmt::format("dlpack-usm-output-{}", getpid());
    fs::create_directories(dir_);
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(previous_);
    fs::remove_all(dir_);
  }
  fs::path previous_, dir_;
};

TEST_F(OutputPaths, ABareFileNameIsAFileOfTheWorkingDirectory) {
  OutputTarget missing = resolve_output("report.json", "--report");
  EXPECT_EQ(missing.kind, OutputTarget::Kind::replace_atomically);
  EXPECT_EQ(missing.path, fs::canonical(dir_) / "report.json");

  write_file_atomically("report.json", "first\n", "--report");
  write_file_atomically("report.json", "second\n", "--report");
  std::ifstream in(dir_ / "report.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "second\n");
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// $GITHUB_STEP_SUMMARY: each writer adds to the end, as >> does (the same
// file: its mode, inode and hard links kept); a new path is created.
TEST_F(OutputPaths, AppendingAddsToTheEndOfTheSameFile) {
  append_file_atomically("summary.md", "one\n", "--summary-md");
  EXPECT_EQ(read_all(dir_ / "summary.md"), "one\n");
  fs::permissions(dir_ / "summary.md", fs::perms::owner_read | fs::perms::owner_write,
                  fs::perm_options::replace);
  fs::create_hard_link(dir_ / "summary.md", dir_ / "linked.md");
  append_file_atomically("summary.md", "two\n", "--summary-md");
  EXPECT_EQ(read_all(dir_ / "summary.md"), "one\ntwo\n");
  EXPECT_EQ(read_all(dir_ / "linked.md"), "one\ntwo\n");
  EXPECT_EQ(fs::status(dir_ / "summary.md").permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
  // /dev/null is written in place, never read or replaced.
  append_file_atomically("/dev/null", "three\n", "--summary-md");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

// The folders of a new output are made; a file standing where one should
// be is refused, and left as it was.
TEST_F(OutputPaths, MissingFoldersOfANewOutputAreMade) {
  write_file_atomically("out/deeper/report.json", "made\n", "--report");
  EXPECT_EQ(read_all(dir_ / "out/deeper/report.json"), "made\n");
  write_file_atomically("a-file", "kept\n", "--report");
  EXPECT_THROW(write_file_atomically("a-file/report.json", "no\n", "--report"), Error);
  EXPECT_EQ(read_all(dir_ / "a-file"), "kept\n");
}

}  // namespace
}  // namespace dlpack_usm
