// A crashed case's stderr, told apart: the library's lines as its own, the
// SYCL runtime's crash handler and adapter lines labelled as the runtime's.
#include "suite/runner/stderr_account.hpp"

#include <string>

#include <gtest/gtest.h>

namespace dlpack_usm::suite {
namespace {

TEST(StderrAccount, NothingSaidIsNothingToAccount) {
  EXPECT_EQ(stderr_account(""), "");
  EXPECT_EQ(stderr_account("\n\n"), "");
}

TEST(StderrAccount, TheLibrarysLinesAreItsOwn) {
  EXPECT_EQ(stderr_account("abort: bad strides\n"), "; its stderr ended with: abort: bad strides");
}

TEST(StderrAccount, TheRuntimesCrashHandlerIsLabelledAsTheRuntimes) {
  std::string err =
      "consumer: f-order unsupported\n"
      "PLEASE submit a bug report to https://software.intel.com/en-us/support/priority-support "
      "and include the crash backtrace and instructions to reproduce the bug.\n"
      "Stack dump:\n";
  EXPECT_EQ(stderr_account(err),
            "; its stderr ended with: consumer: f-order unsupported; the runtime printed: "
            "PLEASE submit a bug report to https://software.intel.com/en-us/support/"
            "priority-support and include the crash backtrace and instructions to reproduce the "
            "bug.\nStack dump:");
}

TEST(StderrAccount, OnlyTheRuntimeSpokeAndOnlyItsLinesAreShown) {
  EXPECT_EQ(stderr_account("UR adapter initialization failed: 37\n"),
            "; the runtime printed: UR adapter initialization failed: 37");
}

TEST(StderrAccount, ALongStderrKeepsItsLastBytes) {
  std::string account = stderr_account(std::string(5000, 'x') + "\n");
  EXPECT_EQ(account.substr(0, 27), "; its stderr ended with: ..");
  EXPECT_EQ(account.size(), std::string("; its stderr ended with: ...").size() + 2000);
}

}  // namespace
}  // namespace dlpack_usm::suite
