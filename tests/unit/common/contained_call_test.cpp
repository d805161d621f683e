// Foreign code asked in a child: every way it can end is an answer, and the
// deadline holds.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "common/contained_call.hpp"

namespace dlpack_usm {
namespace {

using std::chrono::milliseconds;

TEST(ContainedCall, AnAnswerIsWhatTheBodyReturned) {
  ContainedAnswer answer = call_contained([] { return std::string("42"); }, milliseconds(5000));
  EXPECT_TRUE(answer.ok());
  EXPECT_EQ(answer.text, "42");
}

TEST(ContainedCall, ACrashIsAnAnswerNamingTheSignal) {
  ContainedAnswer answer = call_contained(
      []() -> std::string {
        std::raise(SIGSEGV);
        return "unreached";
      },
      milliseconds(5000));
  EXPECT_EQ(answer.ending, ContainedAnswer::Ending::signalled);
  EXPECT_NE(answer.how.find("signal 11"), std::string::npos) << answer.how;
}

TEST(ContainedCall, AHangEndsAtTheDeadline) {
  auto started = std::chrono::steady_clock::now();
  ContainedAnswer answer = call_contained(
      []() -> std::string {
        for (;;) pause();
      },
      milliseconds(300));
  EXPECT_EQ(answer.ending, ContainedAnswer::Ending::hung);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

TEST(ContainedCall, AnExitIsNoAnswer) {
  ContainedAnswer answer =
      call_contained([]() -> std::string { std::_Exit(7); }, milliseconds(5000));
  EXPECT_EQ(answer.ending, ContainedAnswer::Ending::exited);
  EXPECT_NE(answer.how.find("status 7"), std::string::npos) << answer.how;
}

TEST(ContainedCall, AnAnswerIsBounded) {
  ContainedAnswer answer =
      call_contained([] { return std::string(100000, 'x'); }, milliseconds(5000), 1000);
  EXPECT_TRUE(answer.ok());
  EXPECT_EQ(answer.text.size(), 1000u);
}

TEST(RunProgram, AProgramOnPathAnswersWithItsStdout) {
  ContainedAnswer answer =
      run_program({"sh", "-c", "echo hello; echo noise >&2"}, milliseconds(5000));
  EXPECT_TRUE(answer.ok()) << answer.how;
  EXPECT_EQ(answer.text, "hello\n");
}

TEST(RunProgram, AMissingProgramSaysSo) {
  ContainedAnswer answer =
      run_program({"/nonexistent/dlpack-usm-no-such-program"}, milliseconds(5000));
  EXPECT_FALSE(answer.ok());
  EXPECT_NE(answer.how.find("could not be run"), std::string::npos) << answer.how;
}

// Whether process `pid` still runs (a zombie has ended).
bool still_runs(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

TEST(RunProgram, AHangingProgramAndWhatItStartedEndAtTheDeadline) {
  auto started = std::chrono::steady_clock::now();
  ContainedAnswer answer =
      run_program({"sh", "-c", "sleep 30 & echo $!; sleep 30"}, milliseconds(500));
  EXPECT_EQ(answer.ending, ContainedAnswer::Ending::hung);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  std::string helper = answer.text.substr(0, answer.text.find('\n'));
  ASSERT_FALSE(helper.empty()) << "the program said nothing before its deadline";
  for (int waited = 0; waited < 100 && still_runs(helper); ++waited) usleep(20000);
  EXPECT_FALSE(still_runs(helper)) << "pid " << helper << " outlived the call";
}

}  // namespace
}  // namespace dlpack_usm
