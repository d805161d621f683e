// The capability profile of a consumer, from the typed fields of each
// record: a consumer case's line and its exchange (the worker's judgement,
// or the recorder's for what the runner charged).
#include <gtest/gtest.h>

#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::suite {
namespace {

RecordedCase consumer_case(Outcome outcome, ExchangeOutcome exchange = ExchangeOutcome::none) {
  RecordedCase recorded;
  recorded.spec.id = "consumer/opencl:cpu:0/device/c-order";
  recorded.spec.source = "consumer";
  recorded.spec.device = "opencl:cpu:0";
  recorded.spec.place = {Direction::consumer, "device-usm", {{"layout", "c-order"}}, std::nullopt};
  recorded.result = CaseResult(recorded.spec.id, outcome, "what happened");
  recorded.result.exchange = exchange;
  return recorded;
}

TEST(ProfileLine, AConsumerCellIsOnItsLineWhetherItRanOrNot) {
  RecordedCase judged = consumer_case(Outcome::not_supported, ExchangeOutcome::declined);
  ASSERT_NE(profile_line(judged), nullptr);
  EXPECT_EQ(profile_line(judged)->axis, "layout");
  EXPECT_EQ(profile_line(judged)->value, "c-order");
  EXPECT_NE(profile_line(consumer_case(Outcome::skipped)), nullptr);
}

TEST(ProfileLine, CasesOutsideTheProfileHaveNone) {
  RecordedCase producer = consumer_case(Outcome::pass, ExchangeOutcome::emitted);
  producer.spec.place.direction = Direction::producer;
  EXPECT_EQ(profile_line(producer), nullptr);
  RecordedCase own = consumer_case(Outcome::pass);
  own.spec.place = {};
  EXPECT_EQ(profile_line(own), nullptr);
  // Blocked by the runtime's owner answer: the cell is not applicable here.
  EXPECT_EQ(profile_line(consumer_case(Outcome::not_supported, ExchangeOutcome::not_applicable)),
            nullptr);
}

TEST(ProfileLine, TheClassesAreTheConsumerOutcomes) {
  EXPECT_TRUE(is_profile_class(ExchangeOutcome::accepted));
  EXPECT_TRUE(is_profile_class(ExchangeOutcome::deleter_misuse));
  EXPECT_TRUE(is_profile_class(ExchangeOutcome::refused));
  EXPECT_FALSE(is_profile_class(ExchangeOutcome::none));
  EXPECT_FALSE(is_profile_class(ExchangeOutcome::emitted));
  EXPECT_FALSE(is_profile_class(ExchangeOutcome::not_applicable));
}

TEST(ProfileLine, TheProfileListsJudgedCasesWithTheirReasonAndGateEffect) {
  CheckRun run;
  run.cases.push_back(consumer_case(Outcome::crash, ExchangeOutcome::crash));
  run.cases.push_back(consumer_case(Outcome::skipped));
  RecordedCase declined = consumer_case(Outcome::not_supported, ExchangeOutcome::declined);
  declined.result.decline_reason = "no such dtype";
  run.cases.push_back(declined);
  std::vector<ProfileEntry> profile = capability_profile(run);
  ASSERT_EQ(profile.size(), 2u);
  EXPECT_EQ(profile[0].outcome, "crash");
  EXPECT_EQ(profile[0].axis, "layout");
  EXPECT_TRUE(profile[0].failed);
  EXPECT_EQ(profile[1].outcome, "declined");
  EXPECT_EQ(profile[1].reason, "no such dtype");
  EXPECT_FALSE(profile[1].failed);
}

TEST(ConsumerCalls, EachFormOfDlpackCallOnceInTheOrderFirstSeenAsPythonWritesIt) {
  CheckRun run;
  RecordedCase retried = consumer_case(Outcome::pass, ExchangeOutcome::accepted);
  retried.result.evidence = nlohmann::json::parse(R"({"calls": [
      {"method": "__dlpack__", "stream": null, "max_version": [1, 0], "dl_device": null,
       "copy": false},
      {"method": "__dlpack__", "stream": null}]})");
  run.cases.push_back(retried);
  RecordedCase again = consumer_case(Outcome::pass, ExchangeOutcome::accepted);
  again.result.evidence = nlohmann::json::parse(R"({"calls": [
      {"method": "__dlpack__", "stream": null}, {"method": "__dlpack_device__"}]})");
  run.cases.push_back(again);
  RecordedCase producer = consumer_case(Outcome::pass, ExchangeOutcome::emitted);
  producer.spec.place.direction = Direction::producer;
  producer.result.evidence = nlohmann::json::parse(R"({"calls": [{"method": "__dlpack__"}]})");
  run.cases.push_back(producer);
  EXPECT_EQ(consumer_calls(run),
            (std::vector<std::string>{
                "__dlpack__(stream=None, max_version=(1, 0), dl_device=None, copy=False)",
                "__dlpack__(stream=None)"}));
}

TEST(ConsumerCalls, RecordsWithoutCallsAskNothing) {
  CheckRun run;
  run.cases.push_back(consumer_case(Outcome::crash, ExchangeOutcome::crash));
  RecordedCase odd = consumer_case(Outcome::pass, ExchangeOutcome::accepted);
  odd.result.evidence = nlohmann::json::parse(R"({"calls": [7, {"stream": 1}]})");
  run.cases.push_back(odd);
  EXPECT_TRUE(consumer_calls(run).empty());
}

}  // namespace
}  // namespace dlpack_usm::suite
