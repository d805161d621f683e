// What a library under test can do to the runner from inside its worker,
// through the real binary: a state bug that only shows after other cases,
// results forged on the result channel, a worker that joins the run's
// process group and hangs (the no-namespace fallback), and a library whose
// entry point or destructors misbehave in the probe.
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

bool contains(const json& text, const std::string& part) {
  return text.get<std::string>().find(part) != std::string::npos;
}

// The correct consumer, made to crash on its second consume() in a process:
// alone, every case passes; in a batch, the second case crashes. That is a
// state bug, not a flake, and the gate fails (a baseline can expect it).
TEST(CheckIsolation, AFailureThatOnlyFollowsOtherCasesIsAStateBug) {
  fs::path dir = scratch_dir("state-bug");
  std::vector<std::string> arguments{"check",
                                     "--consumer",
                                     fixture("consumer_crash_second").string(),
                                     "--filter",
                                     "consumer/*/device/?-order",
                                     "--jobs",
                                     "1",
                                     "--timeout",
                                     "3",
                                     "--report",
                                     (dir / "report.json").string()};
  ToolResult run = run_tool(arguments);
  std::vector<json> ran = library_results(read_json(dir / "report.json"));
  if (ran.size() < 2) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("gate: FAILED"), std::string::npos) << run.out;
  json second = ran.at(1);  // ids sorted: c-order ran first, f-order second
  EXPECT_TRUE(second.at("id").get<std::string>().ends_with("/f-order")) << second;
  EXPECT_EQ(second.at("outcome"), "crash") << second;
  EXPECT_EQ(second.at("verdict"), "regression") << second;
  EXPECT_EQ(second.at("attempts"), 2) << second;
  EXPECT_TRUE(
      contains(second.at("message"),
               "passes in a fresh process, fails after other cases in one process: a state bug"))
      << second;
  EXPECT_EQ(ran.at(0).at("verdict"), "ok") << ran.at(0);

  std::ofstream(dir / "baseline.txt") << second.at("id").get<std::string>() << "\n";
  arguments.insert(arguments.end(), {"--baseline", (dir / "baseline.txt").string()});
  ToolResult expected = run_tool(arguments);
  EXPECT_EQ(expected.exit_code, 0) << expected.out << expected.err;
  json again = library_results(read_json(dir / "report.json")).at(1);
  EXPECT_EQ(again.at("verdict"), "expected_failure") << again;
  fs::remove_all(dir);
}

// A consumer that ignores strides (a real failure) and writes "pass" lines
// for every case of its batch on descriptor 3, where the result channel
// was, and on every socket it holds; at exit it prints a forged description
// of itself. None of it is believed: the channel is elsewhere, lines without
// the worker's nonce are charged to the running case, never re-run into a
// pass, and the probe reads its description from its own channel.
TEST(CheckIsolation, ResultsForgedOnTheChannelAreTheCasesErrors) {
  fs::path dir = scratch_dir("forged");
  ToolResult run =
      run_tool({"check", "--consumer", fixture("consumer_forges_results").string(), "--filter",
                "consumer/*/device/c-order", "--filter", "consumer/*/device/strided", "--jobs", "1",
                "--report", (dir / "report.json").string()});
  json report = read_json(dir / "report.json");
  std::vector<json> ran = library_results(report);
  if (ran.empty()) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  ASSERT_EQ(report.at("plugins").size(), 1u);
  EXPECT_EQ(report["plugins"][0]["name"], "fixture-consumer_forges_results");
  for (const json& result : ran) {
    EXPECT_NE(result.at("message"), "forged") << result;
    EXPECT_EQ(result.at("verdict"), "regression") << result;
    if (result.at("outcome") == "error") {
      EXPECT_TRUE(contains(result.at("message"), "result channel")) << result;
      EXPECT_EQ(result.at("attempts"), 1) << "a channel error was re-run: " << result;
    }
  }
  fs::remove_all(dir);
}

// Where namespaces are refused, a worker is a plain child of the run: a
// library that moves it into the run's own process group and hangs must
// still be killed at the watchdog (not wait forever), and SIGTERM must still
// end the run with a report.
TEST(CheckIsolation, AWorkerInTheRunsGroupIsStillKilledInTheFallback) {
  fs::path dir = scratch_dir("run-group");
  ToolEnvironment env;
  env.changes["DLPACK_USM_CONTAINMENT"] = "subreaper";
  std::vector<std::string> arguments{"check",
                                     "--consumer",
                                     fixture("consumer_joins_run_group").string(),
                                     "--filter",
                                     "consumer/*/device/c-order",
                                     "--report",
                                     (dir / "report.json").string()};
  std::vector<std::string> watchdog = arguments;
  watchdog.insert(watchdog.end(), {"--timeout", "1"});
  RunningTool timed(watchdog, env);
  ToolResult run = timed.finish(std::chrono::seconds(20));
  ASSERT_FALSE(run.timed_out) << "the run did not end after its case's watchdog: " << run.err;
  std::vector<json> ran = library_results(read_json(dir / "report.json"));
  if (ran.empty()) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_EQ(ran.at(0).at("outcome"), "timeout") << ran.at(0);

  arguments.insert(arguments.end(), {"--timeout", "60"});
  fs::remove(dir / "report.json");
  Notifications events(dir / "events");
  env.changes["DLPACK_USM_FIXTURE_NOTIFY"] = events.path().string();
  RunningTool stopped(arguments, env);
  ASSERT_TRUE(events.wait_for("hang", seconds(30))) << "the library never hung";
  stopped.signal(SIGTERM);
  ToolResult interrupted = stopped.finish(std::chrono::seconds(10));
  ASSERT_FALSE(interrupted.timed_out) << "SIGTERM did not end the run: " << interrupted.err;
  EXPECT_EQ(interrupted.exit_code, 128 + SIGTERM) << interrupted.out << interrupted.err;
  json report = read_json(dir / "report.json");
  EXPECT_EQ(report.at("summary").at("interrupted"), true);
  EXPECT_EQ(library_results(report).at(0).at("outcome"), "not_run");
  fs::remove_all(dir);
}

// The probe loads a library once before any case: when it loaded and
// described itself and then ended the process at exit (a destructor calling
// exit(3), or hanging), it says so, rather than "loading failed".
TEST(CheckIsolation, TheProbeTellsALoadFromAnUnload) {
  struct Unload {
    std::string library;
    std::string what;
  };
  for (const Unload& unload : {Unload{"consumer_exit_on_unload", "exited with code 3"},
                               Unload{"consumer_hang_on_unload", "did not end within"}}) {
    SCOPED_TRACE(unload.library);
    // The probe's own deadline (30 s unless DLPACK_USM_PROBE_TIMEOUT_S says).
    ToolEnvironment env;
    env.changes["DLPACK_USM_PROBE_TIMEOUT_S"] = "2";
    ToolResult run =
        run_tool({"check", "--consumer", fixture(unload.library).string(), "--timeout", "1"}, env);
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("loaded and described itself (fixture-" + unload.library + " 1.0)"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find(unload.what), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("error: loading"), std::string::npos) << run.err;
  }
}

// The probe is bounded by its own deadline, not the case --timeout: a
// short --timeout must not fail a library whose runtime start and load take
// longer on a busy machine.
TEST(CheckIsolation, TheProbeHasItsOwnDeadlineNotTheCaseTimeout) {
  ToolEnvironment env;
  env.changes["DLPACK_USM_PROBE_TIMEOUT_S"] = "3";
  ToolResult run = run_tool(
      {"check", "--consumer", fixture("consumer_hang_on_load").string(), "--timeout", "1"}, env);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("did not finish within 3000 ms"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
