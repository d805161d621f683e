// Where an output goes: a bare file name is a file of the working directory
// (its parent is "."), replaced atomically like any other regular file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/atomic_file.hpp"

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

// $GITHUB_STEP_SUMMARY: each writer adds to the end; a new path is created.
TEST_F(OutputPaths, AppendingAddsToTheEndAtomically) {
  append_file_atomically("summary.md", "one\n", "--summary-md");
  EXPECT_EQ(read_all(dir_ / "summary.md"), "one\n");
  fs::permissions(dir_ / "summary.md", fs::perms::owner_read | fs::perms::owner_write);
  append_file_atomically("summary.md", "two\n", "--summary-md");
  EXPECT_EQ(read_all(dir_ / "summary.md"), "one\ntwo\n");
  // /dev/null is written in place, never read or replaced.
  append_file_atomically("/dev/null", "three\n", "--summary-md");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

}  // namespace
}  // namespace dlpack_usm
