// The worker protocol's lines read back as they were sent, and nothing else
// is taken for one of them.
#include <gtest/gtest.h>

#include <algorithm>

#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {
namespace {

TEST(WorkerProtocol, AnErrorComesBackWithItsExitCodeMessageAndHint) {
  std::string line = error_line(Error(ExitCode::environment, "no OpenCL loader", "install one"));
  std::optional<Error> error = error_from_line(line);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), ExitCode::environment);
  EXPECT_STREQ(error->what(), "no OpenCL loader");
  EXPECT_EQ(error->hint(), "install one");
}

TEST(WorkerProtocol, AnExitCodeNoErrorHasIsTheToolsBug) {
  std::optional<Error> error =
      error_from_line(R"({"error":{"exit_code":0,"message":"m","hint":""}})");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), ExitCode::internal);
}

TEST(WorkerProtocol, DescriptionsComeBackAsSent) {
  nlohmann::json described = nlohmann::json::array({{{"name", "fixture"}, {"version", "1"}}});
  EXPECT_EQ(described_from_line(described_line(described)), described);
}

TEST(WorkerProtocol, NoMessageIsTakenForAnother) {
  std::string ready(kWorkerReadyLine);
  std::string described = described_line(nlohmann::json::array());
  std::string error = error_line(Error(ExitCode::usage, "m"));
  EXPECT_FALSE(error_from_line(ready));
  EXPECT_FALSE(error_from_line(described));
  EXPECT_FALSE(described_from_line(error));
  EXPECT_FALSE(described_from_line("not json"));
  EXPECT_FALSE(result_from_line("a", error));
  EXPECT_FALSE(result_from_line("a", ready));
}

TEST(WorkerProtocol, AResultComesBackForItsCaseOnly) {
  CaseResult sent{"vector/x", Outcome::fail, "bad"};
  sent.add_finding({"DLP-STRIDES-NULL", rules::Severity::error, "strides is NULL"});
  std::string line = json_line(result_to_json(sent));
  std::optional<CaseResult> read = result_from_line("vector/x", line);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->outcome, Outcome::fail);
  ASSERT_EQ(read->findings.size(), 1u);
  EXPECT_EQ(read->findings[0].rule_id, "DLP-STRIDES-NULL");
  EXPECT_FALSE(result_from_line("vector/y", line));
}

TEST(WorkerProtocol, AResultKeepsTheExchangeTheWorkerJudged) {
  CaseResult sent{"consumer/x", Outcome::not_supported, "declined"};
  sent.exchange = ExchangeOutcome::declined;
  sent.decline_reason = "no bool";
  std::optional<CaseResult> read = result_from_line("consumer/x", json_line(result_to_json(sent)));
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->exchange, ExchangeOutcome::declined);
  EXPECT_EQ(read->decline_reason, "no bool");
  // A member of another type makes the line no result.
  EXPECT_FALSE(
      result_from_line("consumer/x", R"({"id":"consumer/x","outcome":"pass","message":1})"));
}

TEST(WorkerProtocol, TheArgvNamesTheHiddenCommandTheTaskAndTheBatch) {
  WorkerJob job;
  job.task = WorkerJob::Task::run_cases;
  job.runtime = "opencl";
  job.suite_dir = "conformance";
  job.plugin_arguments = {"--consumer", "/lib/c.so"};
  job.case_ids = {"a", "b"};
  job.runner_pid = 42;
  std::vector<std::string> argv = worker_argv("/bin/dlpack-usm", job);
  EXPECT_EQ(argv[1], kWorkerCommand);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--run-case"), 2);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--describe-libraries"), 0);
  EXPECT_NE(std::find(argv.begin(), argv.end(), "/lib/c.so"), argv.end());
  job.task = WorkerJob::Task::describe_libraries;
  job.case_ids.clear();
  argv = worker_argv("/bin/dlpack-usm", job);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--describe-libraries"), 1);
}

}  // namespace
}  // namespace dlpack_usm::suite
