// The isolated runner against cases that crash, abort, hang and flake. This
// binary is its own child: with --run-case it runs one selftest case.
#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "common/error.hpp"
#include "selftest_cases.hpp"
#include "suite/model/expectations.hpp"
#include "suite/model/selection.hpp"
#include "suite/runner/runner.hpp"
#include "suite/runner/worker_run.hpp"

namespace dlpack_usm::suite {
namespace {

std::string g_self;

RunnerOptions options_for_tests(
    std::chrono::milliseconds timeout = std::chrono::milliseconds(1500)) {
  RunnerOptions options;
  // Children get the environment the test started with, so the state
  // directory travels on the command line.
  options.child_command = [](const std::vector<const CaseSpec*>& batch) {
    const char* state = std::getenv("DLPACK_USM_SELFTEST_STATE");
    std::vector<std::string> argv{g_self, "--state", state != nullptr ? state : ""};
    for (const CaseSpec* spec : batch) {
      argv.push_back("--run-case");
      argv.push_back(spec->id);
    }
    return argv;
  };
  options.timeout = timeout;
  options.jobs = 2;
  return options;
}

// Workers that take more cases on their channel, as check's own do; each
// start is counted in `starts`.
RunnerOptions options_taking_more(std::shared_ptr<int> starts) {
  RunnerOptions options = options_for_tests();
  BatchFunction plain = options.child_command;
  options.child_command = [plain, starts](const std::vector<const CaseSpec*>& batch) {
    ++*starts;
    std::vector<std::string> argv = plain(batch);
    argv.insert(argv.begin() + 3, "--more");
    return argv;
  };
  options.takes_more = [](const std::vector<const CaseSpec*>&) { return true; };
  return options;
}

// A worker started ahead of its cases, as check starts them.
ChildProcess waiting_worker() {
  const char* state = std::getenv("DLPACK_USM_SELFTEST_STATE");
  return ChildProcess({g_self, "--state", state != nullptr ? state : "", "--more"},
                      std::chrono::seconds(60), {}, ChildProcess::Channel::takes_more);
}

// How many "worker" cases each process ran, by pid.
std::map<std::string, int> runs_per_process() {
  std::ifstream pids(std::filesystem::path(std::getenv("DLPACK_USM_SELFTEST_STATE")) /
                     "worker-pids");
  std::map<std::string, int> runs;
  for (std::string pid; std::getline(pids, pid);) ++runs[pid];
  return runs;
}

// The distinct processes that ran the "worker" cases, and how many ran.
std::pair<std::size_t, int> worker_processes() {
  std::map<std::string, int> runs = runs_per_process();
  int lines = 0;
  for (const auto& [pid, count] : runs) lines += count;
  return {runs.size(), lines};
}

std::vector<CaseSpec> selftest_cases(const std::vector<std::string>& names) {
  std::vector<CaseSpec> all = testing::selftest_sources().front()->cases();
  std::vector<CaseSpec> picked;
  for (const std::string& name : names) {
    for (const CaseSpec& spec : all) {
      if (spec.id == "selftest/" + name) picked.push_back(spec);
    }
  }
  return picked;
}

// `count` cases `name` run by workers that take more, `jobs` at once;
// `starts` counts the workers started.
std::vector<CaseResult> run_taking_more(const std::string& name, std::size_t count, int jobs,
                                        const std::shared_ptr<int>& starts) {
  RunnerOptions options = options_taking_more(starts);
  options.jobs = jobs;
  return run_isolated(selftest_cases(std::vector<std::string>(count, name)), options);
}

std::vector<Outcome> outcomes_of(const std::vector<CaseResult>& results) {
  std::vector<Outcome> outcomes;
  for (const CaseResult& result : results) outcomes.push_back(result.outcome);
  return outcomes;
}

std::map<std::string, CaseResult> by_id(const std::vector<CaseResult>& results) {
  std::map<std::string, CaseResult> map;
  for (const CaseResult& result : results) map[result.id] = result;
  return map;
}

class StateDirectory {
 public:
  StateDirectory() {
    path_ = std::filesystem::temp_directory_path() /
            ("dlpack-usm-selftest-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    setenv("DLPACK_USM_SELFTEST_STATE", path_.c_str(), 1);
  }
  ~StateDirectory() { std::filesystem::remove_all(path_); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

TEST(Runner, CrashesAndHangsAreRecordedAndTheRunGoesOn) {
  StateDirectory state;
  auto results = by_id(run_isolated(
      selftest_cases({"crash", "pass", "abort", "hang", "exit", "hang-silent", "fail"}),
      options_for_tests()));
  ASSERT_EQ(results.size(), 7u);
  EXPECT_EQ(results["selftest/crash"].outcome, Outcome::crash);
  EXPECT_NE(results["selftest/crash"].message.find("signal 11"), std::string::npos)
      << results["selftest/crash"].message;
  EXPECT_NE(results["selftest/crash"].message.find("about to crash"), std::string::npos);
  EXPECT_EQ(results["selftest/abort"].outcome, Outcome::crash);
  EXPECT_NE(results["selftest/abort"].message.find("signal 6"), std::string::npos);
  EXPECT_EQ(results["selftest/exit"].outcome, Outcome::crash);
  EXPECT_NE(results["selftest/exit"].message.find("code 7"), std::string::npos);
  EXPECT_EQ(results["selftest/hang"].outcome, Outcome::timeout);
  EXPECT_EQ(results["selftest/hang-silent"].outcome, Outcome::timeout);
  EXPECT_EQ(results["selftest/pass"].outcome, Outcome::pass);
  EXPECT_EQ(results["selftest/fail"].outcome, Outcome::fail);
  EXPECT_EQ(results["selftest/fail"].rule_ids, std::vector<std::string>{"SELFTEST-fail"});
  // Failing cases ran twice; the passing one once.
  EXPECT_EQ(results["selftest/crash"].attempts, 2);
  EXPECT_EQ(results["selftest/pass"].attempts, 1);
}

TEST(Runner, ACrashInTheMiddleOfABatchIsChargedToItsCaseOnly) {
  StateDirectory state;
  RunnerOptions options = options_for_tests();
  options.jobs = 1;  // one worker: every case in one batch
  options.rerun_failures = false;
  auto ordered = run_isolated(
      selftest_cases({"pass", "noisy", "crash", "pass", "exit-zero", "noisy", "hang", "pass"}),
      options);
  ASSERT_EQ(ordered.size(), 8u);
  EXPECT_EQ(outcomes_of(ordered),
            (std::vector<Outcome>{Outcome::pass, Outcome::pass, Outcome::crash, Outcome::pass,
                                  Outcome::crash, Outcome::pass, Outcome::timeout, Outcome::pass}));
  // exit(0) inside a case is a crash of that case, not a pass.
  EXPECT_NE(ordered[4].message.find("exit code 0"), std::string::npos) << ordered[4].message;
}

TEST(Runner, CasesOfABatchShareAWorkerAndAReRunGetsItsOwn) {
  StateDirectory state;
  RunnerOptions options = options_for_tests();
  options.jobs = 1;
  auto results = by_id(run_isolated(selftest_cases({"worker", "worker", "worker"}), options));
  std::ifstream pids(std::filesystem::path(std::getenv("DLPACK_USM_SELFTEST_STATE")) /
                     "worker-pids");
  std::set<std::string> distinct;
  int lines = 0;
  for (std::string pid; std::getline(pids, pid); ++lines) distinct.insert(pid);
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(distinct.size(), 1u) << "the runtime should start once per worker, not per case";
}

// A failure of a case's own checks comes out the same in any process: the
// failures' re-runs share one fresh worker instead of starting one each (a
// library with one bug fails dozens of cases), while a crash is re-run alone.
TEST(Runner, FailuresAreReRunTogetherAndACrashAlone) {
  StateDirectory state;
  RunnerOptions options = options_for_tests();
  options.jobs = 1;
  int workers = 0;
  auto command = options.child_command;
  options.child_command = [&](const std::vector<const CaseSpec*>& batch) {
    ++workers;
    return command(batch);
  };
  auto results = by_id(run_isolated(selftest_cases({"fail", "error", "pass", "crash"}), options));
  EXPECT_EQ(results["selftest/fail"].attempts, 2);
  EXPECT_EQ(results["selftest/error"].attempts, 2);
  EXPECT_EQ(results["selftest/crash"].attempts, 2);
  // The first runs, the crash's re-run, the failures' re-runs.
  EXPECT_EQ(workers, 3);
}

TEST(Runner, ResultsTravelOnTheirOwnChannel) {
  StateDirectory state;
  auto results = by_id(run_isolated(selftest_cases({"forge", "flood"}), options_for_tests()));
  EXPECT_EQ(results["selftest/forge"].outcome, Outcome::fail)
      << "a result line forged on stdout was believed";
  EXPECT_EQ(results["selftest/forge"].message, "the real result");
  EXPECT_EQ(results["selftest/flood"].outcome, Outcome::pass) << results["selftest/flood"].message;
}

// A library shares its worker's process: a pass it writes on descriptor 3
// (where the channel once was) reaches nothing; one it writes on the
// channel itself lacks the worker's nonce, and is charged to the running
// case as an error, not re-run into a pass; and a fork of the worker that
// carries on with the batch reports nothing, so its pass does not hide the
// worker's real failure.
TEST(Runner, ALibraryCannotWriteResultsOnTheChannel) {
  StateDirectory state;
  RunnerOptions options = options_for_tests();
  options.jobs = 1;
  auto ordered = run_isolated(
      selftest_cases({"forge-fd3", "forge-channel", "fork-carry-on", "pass"}), options);
  ASSERT_EQ(ordered.size(), 4u);
  for (std::size_t real_failure : {0u, 2u}) {
    EXPECT_EQ(ordered[real_failure].outcome, Outcome::fail) << ordered[real_failure].message;
    EXPECT_EQ(ordered[real_failure].message, "the real result");
  }
  EXPECT_EQ(ordered[1].outcome, Outcome::error) << ordered[1].message;
  EXPECT_NE(ordered[1].message.find("result channel"), std::string::npos) << ordered[1].message;
  EXPECT_EQ(ordered[1].attempts, 1) << "an error of the channel was re-run";
  EXPECT_EQ(decide_verdict(ordered[1], Expectations{}), Verdict::regression);
  EXPECT_EQ(ordered[3].outcome, Outcome::pass) << ordered[3].message;
}

// Failing after another case of its worker and passing alone on the re-run
// is a state bug, not a flake: the case keeps its failing outcome and says
// so (as the first case of its worker it would be a flake:
// AChangedResultOnReRunIsFlaky).
TEST(Runner, AFailureOnlyAfterOtherCasesIsAStateBug) {
  StateDirectory state;
  RunnerOptions options = options_for_tests();
  options.jobs = 1;
  auto ordered = run_isolated(selftest_cases({"pass", "state"}), options);
  ASSERT_EQ(ordered.size(), 2u);
  const CaseResult& result = ordered[1];
  EXPECT_EQ(result.outcome, Outcome::fail) << result.message;
  EXPECT_EQ(result.attempts, 2);
  EXPECT_NE(result.message.find(
                "passes in a fresh process, fails after other cases in one process: a state "
                "bug"),
            std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("selftest/pass"), std::string::npos) << result.message;
  EXPECT_EQ(decide_verdict(result, Expectations{}), Verdict::regression);
  Expectations baseline;
  baseline.files.push_back(parse_expectation_text("selftest/state\n", "baseline.txt", "baseline"));
  EXPECT_EQ(decide_verdict(result, baseline), Verdict::expected_failure);
}

// A case turned away while it runs (here: hangs) is stopped at once and
// not_run with the reason; a failed case waiting for its re-run keeps its
// first attempt, the reason noted.
TEST(Runner, CasesTurnedAwayStopAtOnceWithTheirReason) {
  StateDirectory state;
  RunnerOptions options = options_for_tests(std::chrono::milliseconds(20000));
  options.jobs = 1;  // one worker: fail, then hang, in one batch
  bool hang_started = false;
  options.on_start = [&hang_started](const CaseSpec& spec, std::size_t, std::size_t) {
    hang_started = hang_started || spec.id == "selftest/hang";
  };
  options.skip_reason = [&hang_started](const CaseSpec&) -> std::optional<std::string> {
    if (!hang_started) return std::nullopt;
    return std::string("enough for today");
  };
  auto started = std::chrono::steady_clock::now();
  auto ordered = run_isolated(selftest_cases({"fail", "hang", "pass"}), options);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10))
      << "the hanging case ran to its timeout";
  ASSERT_EQ(ordered.size(), 3u);
  EXPECT_EQ(ordered[0].outcome, Outcome::fail);
  EXPECT_EQ(ordered[0].attempts, 1);
  EXPECT_NE(ordered[0].message.find("(without its re-run: enough for today)"), std::string::npos)
      << ordered[0].message;
  for (std::size_t turned_away : {1u, 2u}) {
    EXPECT_EQ(ordered[turned_away].outcome, Outcome::not_run) << ordered[turned_away].id;
    EXPECT_EQ(ordered[turned_away].message, "enough for today");
    EXPECT_EQ(ordered[turned_away].attempts, 0);
  }
}

// The poll loop turns while every worker hangs: a status line can come.
TEST(Runner, TicksComeWhileACaseHangs) {
  StateDirectory state;
  RunnerOptions options = options_for_tests(std::chrono::milliseconds(1500));
  options.rerun_failures = false;
  int ticks = 0;
  options.on_tick = [&ticks] { ++ticks; };
  auto results = run_isolated(selftest_cases({"hang"}), options);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::timeout);
  // 1.5 s at a turn every 200 ms at most: 7 turns, and a few for the start.
  EXPECT_GE(ticks, 7);
}

TEST(Runner, HarnessExceptionsAreErrorsNotCrashes) {
  auto results = by_id(run_isolated(selftest_cases({"error"}), options_for_tests()));
  EXPECT_EQ(results["selftest/error"].outcome, Outcome::error);
  EXPECT_NE(results["selftest/error"].message.find("on purpose"), std::string::npos);
}

TEST(Runner, ChatterOnStdoutDoesNotFoolTheResultParser) {
  auto results = by_id(run_isolated(selftest_cases({"noisy"}), options_for_tests()));
  EXPECT_EQ(results["selftest/noisy"].outcome, Outcome::pass);
}

TEST(Runner, AChangedResultOnReRunIsFlaky) {
  StateDirectory state;
  auto results = run_isolated(selftest_cases({"flaky"}), options_for_tests());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  ASSERT_TRUE(results[0].first_outcome.has_value());
  EXPECT_EQ(*results[0].first_outcome, Outcome::fail);
  EXPECT_EQ(decide_verdict(results[0], Expectations{}), Verdict::flaky);
}

// Flaky means one attempt passed: two failing attempts, even two different
// ones, are a failure, and a warning is failing only under --strict.
TEST(Verdicts, TwoFailingAttemptsAreNoFlake) {
  CaseResult result{"selftest/x", Outcome::crash, "crashed on re-run"};
  result.attempts = 2;
  result.first_outcome = Outcome::timeout;
  EXPECT_EQ(decide_verdict(result, Expectations{}), Verdict::regression);
  result.outcome = Outcome::pass;
  EXPECT_EQ(decide_verdict(result, Expectations{}), Verdict::flaky);
  result.outcome = Outcome::warn;
  EXPECT_EQ(decide_verdict(result, Expectations{}), Verdict::flaky);
  EXPECT_EQ(decide_verdict(result, Expectations{}, true), Verdict::regression);
}

TEST(Verdicts, AWarningPassesTheGateUnlessStrict) {
  CaseResult warned{"selftest/x", Outcome::warn, "warning: ..."};
  EXPECT_EQ(decide_verdict(warned, Expectations{}), Verdict::ok);
  EXPECT_EQ(decide_verdict(warned, Expectations{}, true), Verdict::regression);
  Expectations baseline;
  baseline.files.push_back(parse_expectation_text("selftest/x\n", "baseline.txt", "baseline"));
  EXPECT_EQ(decide_verdict(warned, baseline, true), Verdict::expected_failure);
}

TEST(Runner, BaselineTurnsAKnownFailureGreenAndItsLaterPassIntoUnexpectedPass) {
  StateDirectory state;
  Expectations expectations;
  expectations.files.push_back(parse_expectation_text(
      "selftest/fail\nselftest/pass  # fixed since\n", "baseline.txt", "baseline"));
  auto results =
      by_id(run_isolated(selftest_cases({"fail", "pass", "crash"}), options_for_tests()));
  EXPECT_EQ(decide_verdict(results["selftest/fail"], expectations), Verdict::expected_failure);
  EXPECT_EQ(decide_verdict(results["selftest/pass"], expectations), Verdict::unexpected_pass);
  EXPECT_EQ(decide_verdict(results["selftest/crash"], expectations), Verdict::regression);
  // The same failure without a baseline regresses.
  EXPECT_EQ(decide_verdict(results["selftest/fail"], Expectations{}), Verdict::regression);
}

TEST(Runner, AFlakesEntryToleratesAFailure) {
  Expectations expectations;
  expectations.files.push_back(parse_expectation_text("selftest/fail\n", "flakes.txt", "flakes"));
  auto results = by_id(run_isolated(selftest_cases({"fail"}), options_for_tests()));
  EXPECT_EQ(decide_verdict(results["selftest/fail"], expectations), Verdict::flaky);
}

TEST(Runner, InterruptionRecordsUnfinishedCasesAsNotRun) {
  RunnerOptions options = options_for_tests();
  options.jobs = 1;
  options.on_start = [](const CaseSpec&, std::size_t started, std::size_t) {
    if (started == 2) std::raise(SIGINT);
  };
  std::vector<CaseResult> results =
      run_isolated(selftest_cases({"pass", "hang", "pass", "fail"}), options);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[1].outcome, Outcome::not_run);
  EXPECT_EQ(results[3].outcome, Outcome::not_run);
}

// A worker that takes more gets batch after batch on its channel, up to
// --batch cases in all: eight cases in parts of two, one process; with
// --batch 3, three processes.
TEST(Runner, AWorkerThatTakesMoreRunsBatchAfterBatchUpToItsLimit) {
  for (auto [limit, processes] : {std::pair<std::size_t, std::size_t>{100, 1}, {3, 3}}) {
    StateDirectory state;
    auto starts = std::make_shared<int>(0);
    RunnerOptions options = options_taking_more(starts);
    options.jobs = 1;
    options.batch_size = limit;
    std::vector<std::string> names(8, "worker");
    auto ordered = run_isolated(selftest_cases(names), options);
    ASSERT_EQ(ordered.size(), 8u);
    for (const CaseResult& result : ordered) EXPECT_EQ(result.outcome, Outcome::pass);
    EXPECT_EQ(worker_processes(), (std::pair<std::size_t, int>{processes, 8})) << limit;
    EXPECT_EQ(*starts, static_cast<int>(processes)) << limit;
  }
}

// A crash in a batch handed on the channel is charged to its case alone,
// and the cases after it go on in a fresh worker; a case that fails after
// the cases of an earlier batch of its process is a state bug, as within
// one batch.
TEST(Runner, CasesHandedOnTheChannelAreContainedAsABatchIs) {
  StateDirectory state;
  auto starts = std::make_shared<int>(0);
  RunnerOptions options = options_taking_more(starts);
  options.jobs = 1;
  options.rerun_failures = false;
  auto ordered = run_isolated(
      selftest_cases({"pass", "pass", "pass", "pass", "crash", "pass", "pass", "pass"}), options);
  EXPECT_EQ(outcomes_of(ordered),
            (std::vector<Outcome>{Outcome::pass, Outcome::pass, Outcome::pass, Outcome::pass,
                                  Outcome::crash, Outcome::pass, Outcome::pass, Outcome::pass}));
  EXPECT_NE(ordered[4].message.find("signal 11"), std::string::npos) << ordered[4].message;
  EXPECT_EQ(*starts, 2);

  options.rerun_failures = true;
  // Parts of one case each: "state" comes in the fourth part.
  options.batch_size = 100;
  auto after = run_isolated(selftest_cases({"pass", "pass", "pass", "state"}), options);
  EXPECT_EQ(after[3].outcome, Outcome::fail) << after[3].message;
  EXPECT_NE(after[3].message.find("a state bug (in its worker it ran after selftest/pass and 2 "
                                  "more"),
            std::string::npos)
      << after[3].message;
}

// With four jobs and cases far quicker than a worker's start, a run of
// workers that take more starts two and hands them the cases; cases that
// re-run or whose workers end with their batch start workers as before.
TEST(Runner, QuickCasesDoNotPayForMoreThanTwoWorkers) {
  StateDirectory state;
  auto starts = std::make_shared<int>(0);
  for (const CaseResult& result : run_taking_more("worker", 6, 4, starts)) {
    EXPECT_EQ(result.outcome, Outcome::pass);
  }
  EXPECT_EQ(*starts, 2);
  EXPECT_EQ(worker_processes().second, 6);

  RunnerOptions options = options_taking_more(starts);
  options.jobs = 4;
  options.takes_more = {};
  *starts = 0;
  run_isolated(selftest_cases(std::vector<std::string>(6, "worker")), options);
  EXPECT_GE(*starts, 4);  // batches shared among the four jobs
}

// Failures' re-runs go to workers of their own, which take more re-runs on
// their channel: never to a worker that ran first runs, so that each re-run
// is in a process that ran no first attempt.
TEST(Runner, ReRunsTakeMoreInWorkersOfTheirOwn) {
  StateDirectory state;
  auto starts = std::make_shared<int>(0);
  for (const CaseResult& result : run_taking_more("fail-worker", 8, 1, starts)) {
    EXPECT_EQ(result.outcome, Outcome::fail);
    EXPECT_EQ(result.attempts, 2);
  }
  std::map<std::string, int> runs = runs_per_process();
  EXPECT_EQ(runs.size(), 2u);
  for (const auto& [pid, count] : runs) EXPECT_EQ(count, 8) << pid;
}

// A worker started ahead of the cases takes the first batch: no other
// starts while it serves; one that died before it was needed is passed
// over for a fresh one.
TEST(Runner, AWaitingWorkerTakesTheFirstBatchAndADeadOneIsPassedOver) {
  StateDirectory state;
  auto starts = std::make_shared<int>(0);
  RunnerOptions options = options_taking_more(starts);
  options.jobs = 1;
  std::vector<ChildProcess> waiting;
  waiting.push_back(waiting_worker());
  auto ordered =
      run_isolated(selftest_cases({"worker", "worker", "worker"}), options, std::move(waiting));
  for (const CaseResult& result : ordered) EXPECT_EQ(result.outcome, Outcome::pass);
  EXPECT_EQ(*starts, 0);
  EXPECT_EQ(worker_processes(), (std::pair<std::size_t, int>{1, 3}));

  std::vector<ChildProcess> dead;
  dead.push_back(
      ChildProcess({"/bin/true"}, std::chrono::seconds(5), {}, ChildProcess::Channel::takes_more));
  ASSERT_TRUE(dead.back().wait());
  ordered = run_isolated(selftest_cases({"pass", "fail"}), options, std::move(dead));
  EXPECT_EQ(ordered[0].outcome, Outcome::pass) << ordered[0].message;
  EXPECT_EQ(ordered[1].outcome, Outcome::fail) << ordered[1].message;
  EXPECT_EQ(*starts, 2);  // the batch, then the failure's re-run
}

// A case is one line on the channel, its source's kind and then its id,
// which no worker reads apart: a batch with an id that is no line gets no
// text, and nothing empty is ever sent as if it were a batch.
TEST(Runner, ACaseTravelsOnTheChannelAsOneLineWithItsSource) {
  CaseSpec plain, spaced, folded;
  plain.id = "live/a";
  plain.source = "live";
  spaced.id = "python/x y";
  spaced.source = "python";
  folded.id = "live/a\nlive/b";
  folded.source = "live";
  std::string text = more_cases_text({&plain, &spaced});
  EXPECT_EQ(text, "live live/a\npython python/x y\n");
  EXPECT_EQ(more_cases_text({&plain, &folded}), "");
  std::optional<CaseToRun> back = case_from_line("python python/x y");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->source, "python");
  EXPECT_EQ(back->id, "python/x y");
  for (const char* broken : {"live/a", " live/a", "live ", ""}) {
    EXPECT_FALSE(case_from_line(broken)) << broken;
  }
  ChildProcess child({"/bin/sleep", "5"}, std::chrono::seconds(5), {},
                     ChildProcess::Channel::takes_more);
  EXPECT_FALSE(child.send_more(""));
  EXPECT_TRUE(child.takes_more());
  EXPECT_TRUE(child.send_more(text));
  child.end_more();
  EXPECT_FALSE(child.takes_more());
  EXPECT_FALSE(child.send_more(text));
}

TEST(Selection, ShardsTogetherRunEveryCaseExactlyOnce) {
  std::vector<CaseSpec> all = testing::selftest_sources().front()->cases();
  std::multiset<std::string> seen;
  for (int i = 1; i <= 3; ++i) {
    Selection selection;
    selection.shard = Shard{i, 3};
    for (const CaseSpec& spec : select_cases(all, selection)) seen.insert(spec.id);
  }
  EXPECT_EQ(seen.size(), all.size());
  for (const CaseSpec& spec : all) EXPECT_EQ(seen.count(spec.id), 1u) << spec.id;
}

TEST(Selection, FiltersByIdGlobRuleAndDevice) {
  std::vector<CaseSpec> all = testing::selftest_sources().front()->cases();
  Selection by_glob;
  by_glob.id_globs = {"selftest/hang*"};
  EXPECT_EQ(select_cases(all, by_glob).size(), 2u);
  Selection by_rule;
  by_rule.rule_globs = {"SELFTEST-crash"};
  ASSERT_EQ(select_cases(all, by_rule).size(), 1u);
  EXPECT_EQ(select_cases(all, by_rule)[0].id, "selftest/crash");
  Selection by_device;
  by_device.devices = {"selftest:0"};
  ASSERT_EQ(select_cases(all, by_device).size(), 1u);
  EXPECT_EQ(select_cases(all, by_device)[0].id, "selftest/pass");
  EXPECT_TRUE(device_matches("opencl:cpu:1.0", "opencl:cpu:1"));
  EXPECT_FALSE(device_matches("opencl:cpu:10", "opencl:cpu:1"));
}

TEST(Selection, MalformedShardsAreUsageErrors) {
  for (const char* bad : {"0/3", "4/3", "1", "a/b", "1/0", "-1/2"}) {
    EXPECT_THROW(parse_shard(bad), Error) << bad;
  }
  EXPECT_EQ(parse_shard("2/5").index, 2);
}

TEST(Expectations, DuplicatesAndMalformedLinesAreErrorsWithTheLine) {
  try {
    parse_expectation_text("# known\na/b\n\na/b\n", "baseline.txt", "baseline");
    FAIL() << "duplicate accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
    EXPECT_NE(
        std::string(error.what()).find("baseline.txt:4: duplicate case id 'a/b' (first on line 2)"),
        std::string::npos)
        << error.what();
  }
  EXPECT_THROW(parse_expectation_text("a b\n", "x", "flakes"), Error);
  ExpectationFile file = parse_expectation_text("  x/y   # why\r\n", "x", "baseline");
  EXPECT_EQ(file.case_ids, std::set<std::string>{"x/y"});
  EXPECT_EQ(file.sha256.size(), 64u);
}

TEST(Expectations, FailuresFileIsReadableAsABaseline) {
  std::vector<CaseResult> results{
      {"a", Outcome::fail}, {"b", Outcome::pass}, {"c", Outcome::timeout}};
  ExpectationFile file = parse_expectation_text(failures_file_text(results), "f", "baseline");
  EXPECT_EQ(file.case_ids, (std::set<std::string>{"a", "c"}));
}

}  // namespace
}  // namespace dlpack_usm::suite

int main(int argc, char** argv) {
  // The worker side: --state DIR, --more where it takes more cases on its
  // channel, then --run-case ID for each case of its batch.
  if (argc >= 3 && std::string(argv[1]) == "--state") {
    using dlpack_usm::suite::ResultChannel;
    setenv("DLPACK_USM_SELFTEST_STATE", argv[2], 1);
    bool more = argc >= 4 && std::string(argv[3]) == "--more";
    std::vector<std::string> ids;
    for (int i = more ? 4 : 3; i + 1 < argc; i += 2) ids.push_back(argv[i + 1]);
    ResultChannel channel = ResultChannel::take_inherited(
        more ? ResultChannel::Direction::both : ResultChannel::Direction::send_only);
    dlpack_usm::suite::CaseSources sources = dlpack_usm::suite::testing::selftest_sources();
    return dlpack_usm::suite::run_cases_in_child(channel, sources, ids, {{}, false, more});
  }
  dlpack_usm::suite::g_self = std::filesystem::canonical("/proc/self/exe").string();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
