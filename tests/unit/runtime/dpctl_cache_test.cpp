// The cached location of dpctl's C interface: recalled while the
// interpreter that gave it and the library are as they were, forgotten as
// soon as either changes or another interpreter would be asked, and never
// taken from a file other users may write. Files of plain bytes stand in
// for the interpreter and the library: nothing is run or loaded here.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "runtime/sycl/dpctl_cache.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

namespace fs = std::filesystem;

class DpctlCache : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dlpack-usm-dpctl-cache-" + std::to_string(getpid()));
    python_ = dir_ / "venv" / "bin" / "python";
    library_ = dir_ / "site" / "dpctl" / "libDPCTLSyclInterface.so";
    fs::create_directories(dir_ / "venv" / "bin");
    fs::create_directories(dir_ / "site" / "dpctl");
    write(python_, "#!/bin/sh\n");
    write(library_, "not a library");
    const char* before = std::getenv("XDG_CACHE_HOME");
    if (before != nullptr) saved_ = before;
    setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    if (saved_) {
      setenv("XDG_CACHE_HOME", saved_->c_str(), 1);
    } else {
      unsetenv("XDG_CACHE_HOME");
    }
    fs::remove_all(dir_);
  }

  static void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Another modification time, as a reinstall gives.
  static void touch_later(const fs::path& path) {
    fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(5));
  }

  DpctlCandidate answer() const { return {library_.string(), "the interpreter", "0.22.1"}; }

  fs::path dir_;
  fs::path python_;
  fs::path library_;
  std::optional<std::string> saved_;
};

TEST_F(DpctlCache, LivesInTheUsersCacheDirectory) {
  EXPECT_EQ(dpctl_cache_path(), (dir_ / "cache" / "dlpack-usm" / "dpctl-location").string());
  // A relative XDG_CACHE_HOME is to be ignored (XDG base directories).
  setenv("XDG_CACHE_HOME", "relative", 1);
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home == '/') {
    EXPECT_EQ(dpctl_cache_path(), std::string(home) + "/.cache/dlpack-usm/dpctl-location");
  }
}

TEST_F(DpctlCache, RecallsWhatTheInterpreterSaidWhileNothingChanged) {
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));
  remember_dpctl(python_.string(), answer());
  std::optional<DpctlCandidate> recalled = recall_dpctl(python_.string(), "the interpreter");
  ASSERT_TRUE(recalled);
  EXPECT_EQ(recalled->path, library_.string());
  EXPECT_EQ(recalled->version, "0.22.1");
  EXPECT_EQ(recalled->found_by,
            "the interpreter (" + python_.string() + "), remembered in " + dpctl_cache_path());
  struct stat info {};
  ASSERT_EQ(stat(dpctl_cache_path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & (S_IWGRP | S_IWOTH), 0U);
}

TEST_F(DpctlCache, ForgetsItWhenTheLibraryOrTheInterpreterChanges) {
  remember_dpctl(python_.string(), answer());
  touch_later(library_);
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));

  remember_dpctl(python_.string(), answer());
  write(library_, "another build of the library");
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));

  remember_dpctl(python_.string(), answer());
  touch_later(python_);
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));

  remember_dpctl(python_.string(), answer());
  fs::remove(library_);
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));
}

TEST_F(DpctlCache, AnotherInterpreterIsAskedItself) {
  remember_dpctl(python_.string(), answer());
  EXPECT_FALSE(recall_dpctl("/usr/bin/python3", "python3 on PATH"));
  EXPECT_TRUE(recall_dpctl(python_.string(), "the interpreter"));
}

TEST_F(DpctlCache, AFileOthersMayWriteOrOfAnotherFormIsNotRead) {
  remember_dpctl(python_.string(), answer());
  ASSERT_TRUE(recall_dpctl(python_.string(), "the interpreter"));
  chmod(dpctl_cache_path().c_str(), 0666);
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));

  write(dpctl_cache_path(), "dlpack-usm dpctl-location 2\ninterpreter " + python_.string() + "\n");
  chmod(dpctl_cache_path().c_str(), 0644);
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));
  write(dpctl_cache_path(), "");
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));
}

TEST_F(DpctlCache, AnUnwritableCacheOnlyCostsTheNextRunTheInterpreter) {
  fs::create_directories(dir_ / "cache");
  write(dir_ / "cache" / "dlpack-usm", "a file where the directory would be");
  remember_dpctl(python_.string(), answer());
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));
}

// "No dpctl" is kept too (a machine without dpctl would start Python on
// every command): while the interpreter and every folder it searched are
// as they were.
TEST_F(DpctlCache, RecallsThatThereIsNoDpctlUntilAFolderItSearchedChanges) {
  fs::path site = dir_ / "site";
  fs::path stdlib = dir_ / "venv";
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
  remember_no_dpctl(python_.string(), {stdlib.string(), site.string()});
  EXPECT_EQ(dpctl_absent_path(), (dir_ / "cache" / "dlpack-usm" / "dpctl-absent").string());
  EXPECT_TRUE(recall_no_dpctl(python_.string()));
  EXPECT_FALSE(recall_no_dpctl("/usr/bin/python3"));
  // The location and the absence are two files: neither replaces the other.
  EXPECT_FALSE(recall_dpctl(python_.string(), "the interpreter"));

  // pip install dpctl adds entries to site-packages: its time changes.
  touch_later(site);
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
  remember_no_dpctl(python_.string(), {stdlib.string(), site.string()});
  ASSERT_TRUE(recall_no_dpctl(python_.string()));
  touch_later(python_);
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
}

TEST_F(DpctlCache, AnAbsenceWithAFolderGoneOrNoneSearchedIsNotKept) {
  remember_no_dpctl(python_.string(), {});
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
  remember_no_dpctl(python_.string(), {(dir_ / "site").string(), (dir_ / "gone").string()});
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
  remember_no_dpctl(python_.string(), {(dir_ / "site").string()});
  ASSERT_TRUE(recall_no_dpctl(python_.string()));
  fs::remove_all(dir_ / "site");
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
}

TEST_F(DpctlCache, AnAbsenceFileOthersMayWriteOrMalformedIsNotRead) {
  remember_no_dpctl(python_.string(), {(dir_ / "site").string()});
  ASSERT_TRUE(recall_no_dpctl(python_.string()));
  chmod(dpctl_absent_path().c_str(), 0666);
  EXPECT_FALSE(recall_no_dpctl(python_.string()));
  chmod(dpctl_absent_path().c_str(), 0644);
  std::string kept = read_text(dpctl_absent_path());
  for (const std::string& broken :
       {kept + "library /x\n", kept.substr(0, kept.find("searched")),
        kept.substr(0, kept.rfind(' ')) + "\n", std::string("dlpack-usm dpctl-absent 2\n")}) {
    write(dpctl_absent_path(), broken);
    chmod(dpctl_absent_path().c_str(), 0644);
    EXPECT_FALSE(recall_no_dpctl(python_.string())) << broken;
  }
}

}  // namespace
}  // namespace dlpack_usm::runtime::sycl
