// The check report's JSON writer and reader side by side: what one writes,
// the other reads back case for case (report merge depends on it).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/formats/check_report.hpp"
#include "report/formats/report_json_reader.hpp"
#include "suite/model/record_json.hpp"

namespace dlpack_usm::report {
namespace {

suite::RecordedCase recorded(std::string id, suite::Outcome outcome, suite::Verdict verdict) {
  suite::RecordedCase entry;
  entry.spec.id = id;
  entry.spec.source = "vector";
  entry.result = suite::CaseResult(id, outcome, "message of " + id);
  entry.spec.rules = {"DLP-SHAPE-NEGATIVE"};
  entry.result.verdict = verdict;
  entry.repro = "dlpack-usm check --filter '" + id + "'";
  return entry;
}

suite::CheckRun sample_run() {
  suite::CheckRun run;
  run.tool_version = "9.9.9";
  run.started_at = "2026-01-01T00:00:00Z";
  run.finished_at = "2026-01-01T00:00:01Z";
  run.duration_ms = 1000;
  run.command_line = {"dlpack-usm", "check", "--shard", "2/3", "--label", "ci-gpu"};
  run.options = {{"filter", {"vector/*"}},
                 {"rule", nlohmann::json::array()},
                 {"device", nlohmann::json::array()},
                 {"shard", "2/3"},
                 {"strict", true},
                 {"label", "ci-gpu"},
                 {"suite_digest", std::string(64, 'a')},
                 {"suite_cases", 3}};
  run.strict = true;
  run.interrupted = true;
  run.cases.push_back(recorded("vector/a", suite::Outcome::pass, suite::Verdict::ok));
  suite::RecordedCase failed = recorded("vector/b", suite::Outcome::fail, suite::Verdict::flaky);
  failed.result.add_finding({"DLP-SHAPE-NEGATIVE", rules::Severity::error, "shape[0] is -1"});
  failed.result.attempts = 2;
  failed.spec.file = "suite/vectors/b.json";
  failed.result.first_outcome = suite::Outcome::fail;
  run.cases.push_back(failed);
  run.cases.push_back(recorded("vector/c", suite::Outcome::not_run, suite::Verdict::regression));
  // Cases of libraries: each with its place in the matrix and its exchange.
  suite::RecordedCase consumer =
      recorded("consumer/d", suite::Outcome::not_supported, suite::Verdict::ok);
  consumer.spec.place = {
      suite::Direction::consumer, "device-usm", {{"dtype", "bool"}}, std::nullopt};
  consumer.spec.worker = "python:/usr/bin/python3:numpy";
  consumer.result.exchange = suite::ExchangeOutcome::declined;
  consumer.result.decline_reason = "no bool";
  consumer.result.exception = "BufferError: no bool";
  consumer.result.evidence = {{"stream", nullptr}, {"calls", {"from_dlpack"}}};
  run.cases.push_back(consumer);
  suite::RecordedCase producer = recorded("producer/e", suite::Outcome::fail, suite::Verdict::ok);
  producer.spec.place = {
      suite::Direction::producer, "host-usm", {}, suite::MatrixLine{"combined", "int8/F/0.8"}};
  producer.result.exchange = suite::ExchangeOutcome::emitted_invalid;
  producer.result.emitted = "dltensor 0.8, strides [1, 3], kDLOneAPI:0";
  run.cases.push_back(producer);
  return run;
}

std::filesystem::path written(const suite::CheckRun& run) {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("report-round-trip-" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << check_run_to_json(run).dump(2);
  return path;
}

TEST(ReportJsonRoundTrip, TheReaderReadsBackWhatTheWriterWrote) {
  suite::CheckRun run = sample_run();
  std::filesystem::path path = written(run);
  ShardReport read = read_shard_report(path);
  std::filesystem::remove(path);

  EXPECT_EQ(read.tool_version, run.tool_version);
  EXPECT_EQ(read.label, "ci-gpu");
  EXPECT_EQ(read.shard.index, 2);
  EXPECT_EQ(read.shard.count, 3);
  EXPECT_TRUE(read.strict);
  EXPECT_TRUE(read.interrupted);
  EXPECT_EQ(read.suite_digest, std::string(64, 'a'));
  EXPECT_EQ(read.suite_cases, 3u);
  EXPECT_EQ(read.selection.id_globs, std::vector<std::string>{"vector/*"});
  ASSERT_EQ(read.cases.size(), run.cases.size());
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const suite::RecordedCase& wrote = run.cases[i];
    const suite::RecordedCase& got = read.cases[i];
    EXPECT_EQ(got.result.id, wrote.result.id);
    EXPECT_EQ(got.result.outcome, wrote.result.outcome) << wrote.result.id;
    EXPECT_EQ(got.result.verdict, wrote.result.verdict) << wrote.result.id;
    EXPECT_EQ(got.result.attempts, wrote.result.attempts) << wrote.result.id;
    EXPECT_EQ(got.result.first_outcome, wrote.result.first_outcome) << wrote.result.id;
    EXPECT_EQ(got.result.message, wrote.result.message) << wrote.result.id;
    EXPECT_EQ(got.spec.rules, wrote.spec.rules) << wrote.result.id;
    EXPECT_EQ(got.repro, wrote.repro) << wrote.result.id;
    EXPECT_EQ(got.spec.file, wrote.spec.file) << wrote.result.id;
    // The place, the exchange and the rest of the record too (one codec).
    EXPECT_EQ(suite::record_to_json(got), suite::record_to_json(wrote)) << wrote.result.id;
    ASSERT_EQ(got.result.findings.size(), wrote.result.findings.size()) << wrote.result.id;
    for (std::size_t f = 0; f < got.result.findings.size(); ++f) {
      EXPECT_EQ(got.result.findings[f].rule_id, wrote.result.findings[f].rule_id);
      EXPECT_EQ(got.result.findings[f].severity, wrote.result.findings[f].severity);
      EXPECT_EQ(got.result.findings[f].message, wrote.result.findings[f].message);
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::report
