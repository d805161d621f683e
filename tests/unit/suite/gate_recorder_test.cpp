// The gate's one case recorder and its repro lines: what the streamed
// results line and the report both take.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "runtime/selection.hpp"
#include "suite/cases/vectors/vector_cases.hpp"
#include "suite/gate/case_recorder.hpp"
#include "suite/gate/repro_command.hpp"

namespace dlpack_usm::suite {
namespace {

CaseSpec case_spec(std::string id, std::string source, std::string device) {
  CaseSpec spec;
  spec.id = std::move(id);
  spec.source = std::move(source);
  spec.device = std::move(device);
  return spec;
}

CaseSpec consumer_case() {
  CaseSpec spec = case_spec("consumer/opencl:cpu:0/host/dtype-bool", "consumer", "opencl:cpu:0");
  spec.features = {"dtype-bool"};
  spec.decline_rule = "DLP-CONSUMER-REQUIRED-FEATURE";
  return spec;
}

CheckOptions default_suite_options() {
  CheckOptions options;
  options.suite_dir = default_conformance_dir();
  return options;
}

TEST(ReproCommand, QuotesTheIdAndNamesTheRuntime) {
  CaseSpec spec = case_spec("vector/shape/it's", "vector", "");
  std::string line = repro_command(spec, default_conformance_dir(), true);
  EXPECT_EQ(line, "dlpack-usm check --filter 'vector/shape/it'\\''s' --runtime " +
                      runtime::active_runtime_name());
}

// A vector's repro is the capsule check of its file, which shows every
// finding of its tensors (field, value, message).
TEST(ReproCommand, AVectorIsTheCapsuleCheckOfItsFile) {
  std::filesystem::path suite_dir = default_conformance_dir();
  std::vector<CaseSpec> vectors = VectorCaseSource(suite_dir).cases();
  auto spec = std::find_if(vectors.begin(), vectors.end(), [](const CaseSpec& candidate) {
    return candidate.id == "vector/shape/strides-null-1.2";
  });
  ASSERT_NE(spec, vectors.end());
  EXPECT_EQ(repro_command(*spec, suite_dir, true),
            "dlpack-usm capsule check '" +
                (suite_dir / "vectors/shape/strides-null-1.2.json").string() + "'");
}

TEST(ReproCommand, NamesAnotherSuiteAndOnlyTheFeaturesTheCaseHas) {
  CaseSpec spec = consumer_case();
  std::string line = repro_command(spec, "/suites/mine", false, {}, {"dtype-bool", "float4"});
  EXPECT_NE(line.find(" --require 'dtype-bool' --filter "), std::string::npos) << line;
  EXPECT_EQ(line.find("float4"), std::string::npos) << line;
  EXPECT_NE(line.find(" --suite '/suites/mine' --runtime "), std::string::npos) << line;
}

TEST(CaseRecorder, ARequiredFeatureDeclinedFailsWithTheDeclineRule) {
  CheckOptions options = default_suite_options();
  options.required_features = {"dtype-bool"};
  Expectations expectations;
  CaseRecorder recorder(options, expectations);
  CaseSpec spec = consumer_case();
  RecordedCase recorded =
      recorder.record(spec, CaseResult{spec.id, Outcome::not_supported, "no bool here"});
  EXPECT_EQ(recorded.result.outcome, Outcome::fail);
  ASSERT_EQ(recorded.result.findings.size(), 1u);
  EXPECT_EQ(recorded.result.findings[0].rule_id, spec.decline_rule);
  EXPECT_EQ(recorded.result.verdict, Verdict::regression);
  EXPECT_NE(recorded.repro.find("--require 'dtype-bool'"), std::string::npos);
}

TEST(CaseRecorder, AnUnrequiredDeclineStaysADecline) {
  CheckOptions options = default_suite_options();
  Expectations expectations;
  CaseRecorder recorder(options, expectations);
  CaseSpec spec = consumer_case();
  RecordedCase recorded =
      recorder.record(spec, CaseResult{spec.id, Outcome::not_supported, "no bool here"});
  EXPECT_EQ(recorded.result.outcome, Outcome::not_supported);
  EXPECT_EQ(recorded.result.verdict, Verdict::ok);
  EXPECT_EQ(recorded.repro.find("--require"), std::string::npos);
}

TEST(CaseRecorder, ACaseLeftOutIsSkippedWithoutAnAttemptAndKeepsItsRepro) {
  CheckOptions options = default_suite_options();
  options.required_features = {"dtype-bool"};
  Expectations expectations;
  CaseRecorder recorder(options, expectations);
  RecordedCase recorded = recorder.record_left_out(consumer_case());
  EXPECT_EQ(recorded.result.outcome, Outcome::skipped);
  EXPECT_EQ(recorded.result.attempts, 0);
  EXPECT_EQ(recorded.result.message, "left out by --filter, --rule or --device");
  EXPECT_EQ(recorded.repro.find("--require"), std::string::npos) << recorded.repro;
}

// What the runner charged (it never reported) gets its exchange here: a
// crash, a hang (warnings on an invalid tensor), a NULL deleter called.
TEST(CaseRecorder, ACaseWithAPlaceTheRunnerChargedGetsItsExchange) {
  CheckOptions options = default_suite_options();
  Expectations expectations;
  CaseRecorder recorder(options, expectations);
  CaseSpec spec = consumer_case();
  spec.place = {Direction::consumer, "host-usm", {{"dtype", "bool"}}, std::nullopt};
  auto charged = [&](Outcome outcome, const char* rule) {
    CaseResult result{spec.id, outcome, "it died"};
    result.add_finding({rule, rules::Severity::warning, "it died"});
    return recorder.record(spec, result).result.exchange;
  };
  EXPECT_EQ(charged(Outcome::crash, "DLP-PLUGIN-CRASH"), ExchangeOutcome::crash);
  EXPECT_EQ(charged(Outcome::warn, "DLP-PLUGIN-CRASH-INVALID"), ExchangeOutcome::crash);
  EXPECT_EQ(charged(Outcome::timeout, "DLP-PLUGIN-HANG"), ExchangeOutcome::hang);
  EXPECT_EQ(charged(Outcome::crash, "DLP-CONSUMER-CALLS-NULL-DELETER"),
            ExchangeOutcome::deleter_misuse);
  // What the source judged stands; the tool's own cases have no exchange.
  CaseResult judged{spec.id, Outcome::not_supported, "no bool here"};
  judged.exchange = ExchangeOutcome::declined;
  EXPECT_EQ(recorder.record(spec, judged).result.exchange, ExchangeOutcome::declined);
  CaseSpec own = case_spec("live/x", "live", "opencl:cpu:0");
  EXPECT_EQ(recorder.record(own, CaseResult{own.id, Outcome::crash, "died"}).result.exchange,
            ExchangeOutcome::none);
}

}  // namespace
}  // namespace dlpack_usm::suite
