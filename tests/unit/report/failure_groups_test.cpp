// The failing cases of a run as people read them: alike cases (one verdict,
// the same rules, one message but for its numbers) are one group, the
// groups that fail the gate come first, every group points to its rules,
// and -v / -q change the text alone, never the JSON.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "report/failure_groups.hpp"
#include "report/formats/check_report.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

using suite::Outcome;
using suite::Verdict;

suite::RecordedCase failing_case(const std::string& id, const std::string& rule,
                                 const std::string& message, Verdict verdict = Verdict::regression,
                                 Outcome outcome = Outcome::fail) {
  suite::RecordedCase recorded;
  recorded.spec.id = id;
  recorded.spec.rules = {rule};
  recorded.result = suite::CaseResult(id, outcome, message);
  recorded.result.add_finding({rule, rules::Severity::error, message});
  recorded.result.verdict = verdict;
  recorded.repro = fmt::format("dlpack-usm check --filter '{}'", id);
  return recorded;
}

// 30 cases of one bug, an expected failure, a crash, a warning, and a case
// the filters left out.
suite::CheckRun sample_run() {
  suite::CheckRun run;
  for (int i = 0; i < 30; ++i) {
    run.cases.push_back(failing_case(fmt::format("producer/dev/case-{:02}", i),
                                     "DLP-PRODUCER-CONTENT",
                                     fmt::format("{} of 15 elements differ", i + 1)));
  }
  run.cases.push_back(failing_case("producer/dev/known", "DLP-PRODUCER-CONTENT",
                                   "3 of 15 elements differ", Verdict::expected_failure));
  run.cases.push_back(failing_case("producer/dev/zz-crash", "DLP-PLUGIN-CRASH",
                                   "the case died on SIGSEGV", Verdict::regression,
                                   Outcome::crash));
  suite::RecordedCase warned = failing_case("producer/dev/warned", "DLP-DTYPE-BITS-INVALID",
                                            "odd bits", Verdict::ok, Outcome::warn);
  warned.result.findings.front().severity = rules::Severity::warning;
  run.cases.push_back(warned);
  suite::RecordedCase filtered = failing_case(
      "vector/left-out", "DLP-SHAPE-NULL", "left out by --filter", Verdict::ok, Outcome::skipped);
  filtered.result.findings.clear();
  run.cases.push_back(filtered);
  return run;
}

std::string failures_text(const suite::CheckRun& run, SummaryDetail detail) {
  TextPrinter printer;
  print_failures(printer, run, detail);
  return printer.text();
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST(MessagePattern, NumbersAreOneMark) {
  EXPECT_EQ(message_pattern("12 of 15 elements, strides [1, 3]"), "# of # elements, strides [#]");
  EXPECT_EQ(message_pattern("3 of 5 elements, strides [10, 30]"),
            message_pattern("12 of 15 elements, strides [1, 3]"));
  EXPECT_NE(message_pattern("float32 read"), message_pattern("int8 read"));
  // A 0-d tensor's empty strides are a list like any other.
  EXPECT_EQ(message_pattern("1 of 1 elements read through the strides [] differ"),
            message_pattern("15 of 15 elements read through the strides [5, 1] differ"));
}

TEST(MessagePattern, AddressesSignsAndListsAreOneMarkEach) {
  // Each case of one bug reads at its own address: one pattern.
  EXPECT_EQ(message_pattern("element at 0x7f3a5c001040 is outside [0x7f3a5c000000, +4096)"),
            "element at # is outside [#, +#)");
  EXPECT_EQ(message_pattern("element at 0x7F3A5C0010AF is outside [0x7f3a5c000000, +64)"),
            message_pattern("element at 0x55d0e2b3c000 is outside [0x55d0e2b3b000, +4096)"));
  // A list of any length, its numbers signed or not.
  EXPECT_EQ(message_pattern("strides [-12, 4, 1] and byte_offset 48"),
            message_pattern("strides [4] and byte_offset 0"));
  // A sign is a number's only after no word: "ndim-40" keeps its dash.
  EXPECT_EQ(message_pattern("case ndim-40"), "case ndim-#");
  EXPECT_EQ(message_pattern("0x"), "#x");
}

TEST(GroupFailures, AlikeCasesAreOneGroupAndTheGateFailingOnesComeFirst) {
  suite::CheckRun run = sample_run();
  std::vector<CaseGroup> groups = group_failures(run);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].heading, "regression");
  EXPECT_EQ(groups[0].cases.size(), 30u);
  EXPECT_TRUE(groups[0].messages_vary);
  EXPECT_EQ(groups[0].rule_ids, std::vector<std::string>{"DLP-PRODUCER-CONTENT"});
  EXPECT_EQ(groups[1].heading, "regression");
  EXPECT_EQ(groups[1].rule_ids, std::vector<std::string>{"DLP-PLUGIN-CRASH"});
  // An expected failure has the same rule and pattern, but another verdict.
  EXPECT_EQ(groups[2].heading, "expected_failure");
  ASSERT_EQ(group_warnings(run).size(), 1u);
}

TEST(PrintFailures, GroupedIsABlockPerGroupWithItsRules) {
  std::string text = failures_text(sample_run(), SummaryDetail::grouped);
  EXPECT_NE(text.find("32 cases not ok, in 3 groups (-v lists each case):"), std::string::npos)
      << text;
  EXPECT_NE(text.find("regression: 30 cases, fail\n  1 of 15 elements differ\n"
                      "  cases: producer/dev/case-00, producer/dev/case-01, "
                      "producer/dev/case-02 and 27 more (their messages differ in numbers)\n"
                      "  repro: dlpack-usm check --filter 'producer/dev/case-00'\n"
                      "  see: dlpack-usm rules DLP-PRODUCER-CONTENT\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("regression: 1 case, crash\n"), std::string::npos) << text;
  EXPECT_NE(text.find("warnings (1 in 1 group; the gate passes them, --strict fails them):\n"
                      "  producer/dev/warned: odd bits\n"
                      "    see: dlpack-usm rules DLP-DTYPE-BITS-INVALID\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(count_of(text, "repro:"), 3u);
  EXPECT_EQ(text.find("left-out"), std::string::npos) << text;
}

TEST(GroupFailures, CasesThatDifferInAddressesAreOneGroup) {
  suite::CheckRun run;
  for (int i = 0; i < 20; ++i) {
    run.cases.push_back(failing_case(
        fmt::format("producer/dev/case-{:02}", i), "DLP-PRODUCER-CONTENT",
        fmt::format("element {} at {:#x} is outside the allocation [{:#x}, +{})", i,
                    0x7f3a5c001040 + i * 0x1ab0, 0x7f3a5c000000 + i * 0x1000, 64 * (i + 1))));
  }
  std::vector<CaseGroup> groups = group_failures(run);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cases.size(), 20u);
  EXPECT_TRUE(groups[0].messages_vary);
}

// A library that crashes case after case, stopped by
// --max-consecutive-hangs: five crashes, the last one's re-run cut short by
// the stop, and the cases after it not run with the stop's reason.
suite::CheckRun stopped_run(const std::string& reason) {
  suite::CheckRun run;
  const std::string crash = "the case died on signal 11 (Segmentation fault)";
  for (int i = 0; i < 5; ++i) {
    std::string message = i < 4 ? crash : fmt::format("{} (without its re-run: {})", crash, reason);
    run.cases.push_back(failing_case(fmt::format("producer/dev/crash-{}", i), "DLP-PLUGIN-CRASH",
                                     message, Verdict::regression, Outcome::crash));
  }
  for (int i = 0; i < 40; ++i) {
    suite::RecordedCase left =
        failing_case(fmt::format("producer/dev/left-{:02}", i), "DLP-PLUGIN-CRASH", reason,
                     Verdict::regression, Outcome::not_run);
    left.result.findings.clear();
    run.cases.push_back(left);
  }
  run.stop_reasons = {reason};
  run.interrupted = true;
  return run;
}

TEST(GroupFailures, OneCrashingLibraryIsOneGroupAndItsStop) {
  const std::string reason =
      "the producer libp.so hung or crashed on 5 consecutive cases; not tested further "
      "(--max-consecutive-hangs 5)";
  suite::CheckRun run = stopped_run(reason);
  std::vector<CaseGroup> groups = group_failures(run);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cases.size(), 5u);
  EXPECT_FALSE(groups[0].messages_vary);
  std::vector<StoppedCases> stopped = stopped_cases(run);
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_EQ(stopped[0].reason, reason);
  EXPECT_EQ(stopped[0].count, 40u);

  std::string text = check_run_summary(run, SummaryDetail::grouped);
  EXPECT_NE(text.find("5 cases not ok, in 1 group, and 40 not run (-v lists each case):\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n40 cases not run: " + reason + "\n"), std::string::npos) << text;
  EXPECT_EQ(count_of(text, "repro:"), 1u) << text;
  // -v still lists every case.
  EXPECT_EQ(count_of(failures_text(run, SummaryDetail::every_case), "repro:"), 45u);
}

TEST(GroupFailures, WithoutAStopNotRunCasesAreAGroupAndStopsAreMatchedToTheirShards) {
  const std::string reason = "the run stopped after 1 failure (--max-failures 1)";
  suite::CheckRun run = stopped_run(reason);
  // Cases not run with no stop reason to explain them (an interrupt) stay a
  // group of their own, after the crashes'.
  run.stop_reasons.clear();
  std::vector<CaseGroup> groups = group_failures(run);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].cases.size(), 5u);
  EXPECT_EQ(groups[1].cases.size(), 40u);
  EXPECT_TRUE(stopped_cases(run).empty());
  // In a merged run a shard's reason is labelled, and so are the messages
  // of the cases it left (report_merge.cpp): the reason of shard "cpu"
  // leaves no case of shard "gpu" unrun.
  run.stop_reasons = {"cpu: " + reason};
  for (suite::RecordedCase& recorded : run.cases) {
    bool first_half = &recorded - run.cases.data() < 25;
    if (recorded.result.outcome == Outcome::not_run) {
      recorded.result.message = (first_half ? "cpu: " : "gpu: ") + recorded.result.message;
    }
  }
  std::vector<StoppedCases> stopped = stopped_cases(run);
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_EQ(stopped[0].count, 20u);
  EXPECT_EQ(stopped_case_count(run), 20u);
}

// A library that forges a result names the case it forges, and a state
// bug names the case before it and how its own case ends alone: one bug
// whose messages differ in the case ids they name is one group. Words that are no case id of the
// run (a path, a cell's name) still tell groups apart.
TEST(GroupFailures, MessagesThatDifferInTheCaseIdsTheyNameAreOneGroup) {
  suite::CheckRun run;
  for (int i = 0; i < 6; ++i) {
    std::string id = fmt::format("consumer/dev/cell-{}", i);
    run.cases.push_back(
        failing_case(id, "DLP-PLUGIN-CHANNEL",
                     fmt::format("the result channel carried a line without its nonce: "
                                 "\"{{\\\"id\\\":\\\"{}\\\",\\\"outcome\\\":\\\"pass\\\"}}\"",
                                 id),
                     Verdict::regression, Outcome::error));
  }
  for (int i = 0; i < 4; ++i) {
    std::string before = fmt::format("consumer/dev/cell-{}", i);
    run.cases.push_back(failing_case(
        fmt::format("consumer/dev/late-{}", i), "DLP-PLUGIN-CRASH",
        fmt::format("a state bug (in its worker it ran after {}; in a fresh process it ended {}; "
                    "to see it fail, add --filter '{}' --jobs 1 to the repro): the case died on "
                    "signal 11",
                    before, i % 2 == 0 ? "pass" : "not_supported", before),
        Verdict::regression, Outcome::crash));
  }
  for (const char* path : {"consumer/dev/elsewhere", "lib/a/b.so"}) {
    run.cases.push_back(failing_case(fmt::format("consumer/dev/x-{}", path[0]), "DLP-PLUGIN-CRASH",
                                     fmt::format("a state bug (in its worker it ran after {}; "
                                                 "to see it fail, add --filter '{}' --jobs 1 to "
                                                 "the repro): the case died on signal 11",
                                                 path, path),
                                     Verdict::regression, Outcome::crash));
  }
  std::vector<CaseGroup> groups = group_failures(run);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].cases.size(), 6u);
  EXPECT_FALSE(groups[0].messages_vary);
  EXPECT_EQ(groups[1].cases.size(), 4u);
  EXPECT_FALSE(groups[1].messages_vary);
  // "consumer/dev/elsewhere" is no case of this run, nor is the path: the
  // two messages differ in words, and are a group each.
  EXPECT_EQ(groups[2].cases.size(), 1u);
  EXPECT_EQ(groups[3].cases.size(), 1u);
}

TEST(PrintFailures, WarningGroupsAreCappedAsFailureGroupsAre) {
  suite::CheckRun run;
  for (int i = 0; i < 12; ++i) {
    suite::RecordedCase warned =
        failing_case(fmt::format("producer/dev/w-{:02}", i), fmt::format("DLP-RULE-{}", i),
                     "a convention", Verdict::ok, Outcome::warn);
    warned.result.findings.front().severity = rules::Severity::warning;
    run.cases.push_back(warned);
  }
  std::string text = failures_text(run, SummaryDetail::grouped);
  EXPECT_NE(text.find("warnings (12 in 12 groups;"), std::string::npos) << text;
  EXPECT_NE(text.find("producer/dev/w-07: a convention"), std::string::npos) << text;
  EXPECT_EQ(text.find("producer/dev/w-08"), std::string::npos) << text;
  EXPECT_NE(text.find("  and 4 more groups (-v lists each case)\n"), std::string::npos) << text;
  // -v lists every one.
  EXPECT_NE(failures_text(run, SummaryDetail::every_case).find("producer/dev/w-11"),
            std::string::npos);
}

TEST(PrintFailures, EveryCaseIsABlockOfItsOwnAndQuietPrintsNothing) {
  suite::CheckRun run = sample_run();
  std::string text = failures_text(run, SummaryDetail::every_case);
  EXPECT_EQ(count_of(text, "repro:"), 32u);
  EXPECT_EQ(count_of(text, "see: dlpack-usm rules DLP-PRODUCER-CONTENT"), 31u);
  EXPECT_NE(text.find("regression producer/dev/case-29: fail (0 ms)\n  30 of 15 elements differ\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(failures_text(run, SummaryDetail::quiet), "");
}

TEST(PrintFailures, FindingsTheMessageDoesNotSayAreShown) {
  suite::CheckRun run;
  suite::RecordedCase vector = failing_case("vector/shape/x", "DLP-STRIDES-ZERO",
                                            "expected DLP-STRIDES-ZERO to fire; unexpected "
                                            "DLP-STRIDES-NULL (fired: DLP-STRIDES-NULL)");
  vector.result.findings = {{"", rules::Severity::error, vector.result.message},
                            {"DLP-STRIDES-NULL", rules::Severity::error,
                             "dl_tensor.strides: NULL strides at DLPack 1.2"}};
  run.cases.push_back(vector);
  std::string text = failures_text(run, SummaryDetail::grouped);
  EXPECT_NE(text.find("  finding: DLP-STRIDES-NULL (error): dl_tensor.strides: NULL strides at "
                      "DLPack 1.2\n"),
            std::string::npos)
      << text;
  // A check of the suite itself points to the rules the case is about, and
  // to the one that fired instead.
  EXPECT_NE(text.find("see: dlpack-usm rules DLP-STRIDES-NULL\n"), std::string::npos) << text;
  EXPECT_NE(text.find("see: dlpack-usm rules DLP-STRIDES-ZERO\n"), std::string::npos) << text;
}

TEST(CheckSummary, DetailChangesTheTextAloneAndFilteredCasesAreNoVerdicts) {
  suite::CheckRun run = sample_run();
  std::string json = check_run_to_json(run).dump();
  EXPECT_EQ(check_run_summary(run, SummaryDetail::quiet),
            "gate: FAILED (33 cases run, 1 filtered, in 0.0 s)\n");
  EXPECT_NE(check_run_summary(run, SummaryDetail::grouped)
                .find("verdicts: 1 ok, 1 expected failure, 0 flaky, 0 unexpected pass, "
                      "31 regression"),
            std::string::npos);
  EXPECT_EQ(check_run_to_json(run).dump(), json);
  nlohmann::ordered_json summary = check_run_to_json(run)["summary"];
  EXPECT_EQ(summary["verdicts"]["ok"], 1);
  EXPECT_EQ(summary["outcomes"]["skipped"], 1);
  EXPECT_EQ(summary["total"], 34);
}

}  // namespace
}  // namespace dlpack_usm::report
