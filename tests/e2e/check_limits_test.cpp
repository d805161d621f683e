// A run that a hanging library would hold for hours, through the real
// binary: with stderr not a terminal (a pipe here, a file or a pipe in CI)
// a status line comes at the interval even while every case hangs;
// --max-failures ends the run after so many failures, and
// --max-consecutive-hangs stops testing a library that hangs case after
// case. Cases turned away are not_run with the reason, the reports are
// written and the gate fails with exit 1.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct LimitedRun {
  ToolResult run;
  json report;
  std::vector<json> library;  // the library's results in the report
  double wall_s = 0;
};

// `check --consumer consumer_hang` on the cases of `filters`, one job and a
// short timeout, with `extra` options.
LimitedRun run_hanging_consumer(const std::string& name, const std::vector<std::string>& filters,
                                const std::vector<std::string>& extra,
                                const ToolEnvironment& env = {}) {
  fs::path dir = scratch_dir(name);
  std::vector<std::string> arguments{"check",  "--consumer", fixture("consumer_hang").string(),
                                     "--jobs", "1",          "--timeout",
                                     "0.3",    "--report",   (dir / "report.json").string()};
  for (const std::string& filter : filters) arguments.insert(arguments.end(), {"--filter", filter});
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  LimitedRun limited;
  auto started = std::chrono::steady_clock::now();
  limited.run = run_tool(arguments, env);
  limited.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (fs::exists(dir / "report.json")) {
    limited.report = read_json(dir / "report.json");
    limited.library = library_results(limited.report);
  }
  fs::remove_all(dir);
  return limited;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int count_outcome(const std::vector<json>& results, const std::string& outcome) {
  int count = 0;
  for (const json& result : results) count += result.at("outcome") == outcome ? 1 : 0;
  return count;
}

TEST(CheckLimits, StatusLinesComeAtTheIntervalWhileCasesHang) {
  ToolEnvironment env;
  env.changes["DLPACK_USM_STATUS_INTERVAL_S"] = "0.25";
  LimitedRun limited = run_hanging_consumer("status", {"consumer/*/device/dtype-int*"},
                                            {"--max-consecutive-hangs", "0"}, env);
  if (limited.library.empty()) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(limited.run.exit_code, 1) << limited.run.err;
  ASSERT_EQ(count_outcome(limited.library, "timeout"), 4) << limited.run.out;
  const std::regex status(
      R"(\[(\d+)/(\d+)\] pass \d+(?: [a-z_]+ \d+)* timeout (\d+)(?: [a-z_]+ \d+)* · \d+:\d\d elapsed)");
  std::vector<std::smatch> found;
  std::vector<std::string> lines = lines_of(limited.run.err);
  for (const std::string& line : lines) {
    std::smatch match;
    if (std::regex_match(line, match, status)) found.push_back(match);
  }
  // Every 0.25 s of a run of several seconds; on a loaded machine a turn
  // may come late, so a third of them is the least.
  int expected = std::max(3, static_cast<int>(limited.wall_s / 0.25 / 3));
  ASSERT_GE(static_cast<int>(found.size()), expected) << limited.run.err;
  // The first came while the first case hung, before any case finished: a
  // status line does not wait for a result.
  EXPECT_EQ(found.front()[1].str(), "0") << limited.run.err;
  EXPECT_EQ(found.back()[2].str(), "4");
  EXPECT_GE(std::stoi(found.back()[3].str()), 3) << limited.run.err;
  // No progress line for a terminal in a log.
  EXPECT_EQ(limited.run.err.find('\r'), std::string::npos);
}

TEST(CheckLimits, StatusIntervalZeroPrintsNoneAndAWrongOneIsAUsageError) {
  ToolEnvironment off;
  off.changes["DLPACK_USM_STATUS_INTERVAL_S"] = "0";
  LimitedRun quiet = run_hanging_consumer("status-off", {"consumer/*/device/dtype-int8"},
                                          {"--max-consecutive-hangs", "0"}, off);
  if (quiet.library.empty()) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(quiet.run.err.find(" elapsed"), std::string::npos) << quiet.run.err;
  for (const char* wrong : {"soon", "-1", "nan", "1e9"}) {
    ToolEnvironment env;
    env.changes["DLPACK_USM_STATUS_INTERVAL_S"] = wrong;
    LimitedRun refused =
        run_hanging_consumer("status-wrong", {"consumer/*/device/dtype-int8"}, {}, env);
    EXPECT_EQ(refused.run.exit_code, 2) << wrong << ": " << refused.run.err;
    EXPECT_NE(refused.run.err.find("dlpack-usm: error: DLPACK_USM_STATUS_INTERVAL_S="),
              std::string::npos)
        << refused.run.err;
    EXPECT_NE(refused.run.err.find("dlpack-usm: hint: "), std::string::npos) << refused.run.err;
  }
}

TEST(CheckLimits, MaxFailuresEndsTheRunAfterThatMany) {
  LimitedRun limited =
      run_hanging_consumer("max-failures", {"consumer/*/device/dtype-*"},
                           {"--max-failures", "3", "--max-consecutive-hangs", "0"});
  if (limited.library.empty()) GTEST_SKIP() << "no device with USM here";
  const std::string reason = "the run stopped after 3 failures (--max-failures 3)";
  EXPECT_EQ(limited.run.exit_code, 1) << limited.run.out << limited.run.err;
  EXPECT_EQ(count_outcome(limited.library, "timeout"), 3) << limited.run.out;
  EXPECT_EQ(count_outcome(limited.library, "not_run"),
            static_cast<int>(limited.library.size()) - 3);
  for (const json& result : limited.library) {
    if (result.at("outcome") != "not_run") continue;
    EXPECT_EQ(result.at("message"), reason) << result;
    EXPECT_EQ(result.at("attempts"), 0) << result;
  }
  const json& summary = limited.report.at("summary");
  EXPECT_EQ(summary.at("stop_reasons"), json::array({reason}));
  EXPECT_EQ(summary.at("gate"), "failed");
  EXPECT_EQ(limited.report.at("options").at("max_failures"), 3);
  // The cases left are the stop's one line, with their count, not a group.
  std::string stop_line = fmt::format("{} cases not run: {}", limited.library.size() - 3, reason);
  EXPECT_NE(limited.run.out.find(stop_line), std::string::npos) << limited.run.out;
  EXPECT_EQ(limited.run.out.find(" cases, not_run\n"), std::string::npos) << limited.run.out;
  EXPECT_NE(limited.run.out.find("gate: FAILED"), std::string::npos) << limited.run.out;
  EXPECT_NE(limited.run.out.find("stopped early"), std::string::npos) << limited.run.out;
  EXPECT_NE(limited.run.err.find("dlpack-usm: note: " + reason), std::string::npos)
      << limited.run.err;
}

TEST(CheckLimits, ALibraryThatHangsCaseAfterCaseIsNotTestedFurther) {
  LimitedRun limited = run_hanging_consumer(
      "consecutive", {"consumer/*/device/dtype-*", "runtime/*"}, {"--max-consecutive-hangs", "2"});
  if (limited.library.empty()) GTEST_SKIP() << "no device with USM here";
  const std::string reason =
      "the consumer libfixture_consumer_hang.so hung or crashed on 2 consecutive cases; not "
      "tested further (--max-consecutive-hangs 2)";
  EXPECT_EQ(limited.run.exit_code, 1) << limited.run.out << limited.run.err;
  EXPECT_EQ(count_outcome(limited.library, "timeout"), 2) << limited.run.out;
  int not_run = 0;
  for (const json& result : limited.library) {
    if (result.at("outcome") != "not_run") continue;
    ++not_run;
    EXPECT_EQ(result.at("message"), reason) << result;
  }
  EXPECT_EQ(not_run, static_cast<int>(limited.library.size()) - 2);
  // The runtime's own cases call no library: they still ran.
  for (const json& result : limited.report.at("results")) {
    if (result.at("id").get<std::string>().starts_with("runtime/")) {
      EXPECT_NE(result.at("outcome"), "not_run") << result;
    }
  }
  EXPECT_EQ(limited.report.at("summary").at("stop_reasons"), json::array({reason}));
  EXPECT_EQ(limited.report.at("summary").at("gate"), "failed");
  EXPECT_NE(limited.run.out.find(fmt::format("{} cases not run: {}", not_run, reason)),
            std::string::npos)
      << limited.run.out;
}

TEST(CheckLimits, BadLimitsAreUsageErrors) {
  for (const char* option : {"--max-failures", "--max-consecutive-hangs"}) {
    for (const char* wrong : {"-1", "many"}) {
      ToolResult result = run_tool({"check", "--vectors-only", option, wrong});
      EXPECT_EQ(result.exit_code, 2) << option << " " << wrong << ": " << result.err;
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
