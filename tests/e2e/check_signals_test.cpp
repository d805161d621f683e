// `check` stopped by a signal, through the real binary: whatever the signal
// it can catch and wherever the run is (a hanging case, the plugin probe),
// it writes a valid partial report (unfinished cases not_run), never passes
// the gate, and exits with 128 + the signal's number.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using std::chrono::seconds;

struct Stopped {
  ToolResult run;
  json report;
  std::vector<json> stream;  // the lines of results.jsonl
};

// Runs `check ARGUMENTS --report DIR/report.json`, waits until a fixture
// library says `event`, sends `signal` and reads what the run left.
Stopped stop_run(const fs::path& dir, std::vector<std::string> arguments, const std::string& event,
                 int signal) {
  Notifications events(dir / "events");
  ToolEnvironment env;
  env.changes["DLPACK_USM_FIXTURE_NOTIFY"] = events.path().string();
  fs::remove(dir / "report.json");
  arguments.insert(arguments.end(),
                   {"--timeout", "60", "--report", (dir / "report.json").string()});
  RunningTool running(arguments, env);
  Stopped stopped;
  if (!events.wait_for(event, seconds(30))) {
    ADD_FAILURE() << "the library never said " << event;
    return stopped;
  }
  running.signal(signal);
  stopped.run = running.finish(seconds(10));
  EXPECT_FALSE(stopped.run.timed_out) << "signal " << signal << " did not end the run";
  if (fs::exists(dir / "report.json")) stopped.report = read_json(dir / "report.json");
  std::ifstream stream(dir / "results.jsonl");
  for (std::string line; std::getline(stream, line);) stopped.stream.push_back(json::parse(line));
  return stopped;
}

// Every case the filters keep is in the baseline, so a not_run would be an
// "expected failure": the gate must fail all the same.
TEST(CheckSignals, AnInterruptedRunNeverPasses) {
  fs::path dir = scratch_dir("interrupted-baseline");
  std::string library = fixture("consumer_hang").string();
  std::vector<std::string> base{"check", "--consumer", library, "--filter",
                                "consumer/*/device/c-order"};
  std::vector<std::string> list = base;
  list.push_back("--list");
  ToolResult listed = run_tool(list);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  if (listed.out.find("consumer/") == std::string::npos) GTEST_SKIP() << "no device with USM here";
  std::ofstream(dir / "baseline.txt") << listed.out;
  base.insert(base.end(), {"--baseline", (dir / "baseline.txt").string()});
  Stopped stopped = stop_run(dir, base, "hang", SIGTERM);
  EXPECT_EQ(stopped.run.exit_code, 128 + SIGTERM) << stopped.run.out << stopped.run.err;
  EXPECT_NE(stopped.run.out.find("gate: FAILED"), std::string::npos) << stopped.run.out;
  EXPECT_NE(stopped.run.out.find("interrupted"), std::string::npos) << stopped.run.out;
  ASSERT_TRUE(stopped.report.is_object());
  EXPECT_EQ(stopped.report.at("summary").at("interrupted"), true);
  EXPECT_EQ(stopped.report.at("summary").at("gate"), "failed");
  fs::remove_all(dir);
}

// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE while a case hangs: the
// report and the results stream name every unfinished case not_run.
TEST(CheckSignals, EachStopSignalLeavesAPartialReport) {
  fs::path dir = scratch_dir("signals");
  std::string library = fixture("consumer_hang").string();
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    SCOPED_TRACE(strsignal(signal));
    Stopped stopped = stop_run(
        dir,
        {"check", "--consumer", library, "--filter", "consumer/*/device/?-order", "--jobs", "1"},
        "hang", signal);
    EXPECT_EQ(stopped.run.exit_code, 128 + signal) << stopped.run.out << stopped.run.err;
    ASSERT_TRUE(stopped.report.is_object()) << "no report";
    std::vector<json> results = library_results(stopped.report);
    if (results.empty()) GTEST_SKIP() << "no device with USM here";
    EXPECT_EQ(stopped.report.at("summary").at("interrupted"), true);
    EXPECT_EQ(stopped.report.at("summary").at("gate"), "failed");
    for (const json& result : results) EXPECT_EQ(result.at("outcome"), "not_run") << result;
    EXPECT_EQ(library_results(json{{"results", stopped.stream}}).size(), results.size())
        << "the results stream lacks the unfinished cases";
  }
  fs::remove_all(dir);
}

// A library whose entry point hangs holds the probe, before any case: a
// SIGINT there still leaves a report, every case not_run.
TEST(CheckSignals, SigintDuringTheProbeLeavesAReport) {
  fs::path dir = scratch_dir("probe-sigint");
  Stopped stopped = stop_run(dir,
                             {"check", "--consumer", fixture("consumer_hang_on_load").string(),
                              "--filter", "consumer/*/device/c-order"},
                             "load", SIGINT);
  EXPECT_EQ(stopped.run.exit_code, 128 + SIGINT) << stopped.run.out << stopped.run.err;
  ASSERT_TRUE(stopped.report.is_object()) << "no report";
  EXPECT_EQ(stopped.report.at("summary").at("interrupted"), true);
  EXPECT_EQ(stopped.report.at("summary").at("gate"), "failed");
  for (const json& result : library_results(stopped.report)) {
    EXPECT_EQ(result.at("outcome"), "not_run") << result;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dlpack_usm::e2e
