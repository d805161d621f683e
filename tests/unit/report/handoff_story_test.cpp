// Whose fault a handoff's failure is, as the story and its JSON say: a
// crash by the side whose call the worker announced, a broken capsule by
// the producer (whatever the consumer then did), wrong data by the
// consumer, a decline by nobody; and the remedies are the story's only
// where the direct handoff did not work. The records are what a worker
// and the runner give (python/dlpack_usm/handoff, runner.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/handoff_story.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::json;
using suite::Outcome;

suite::RecordedCase step(const std::string& name, Outcome outcome, std::string message,
                         json evidence = nullptr) {
  suite::RecordedCase recorded;
  recorded.spec.id = "numpy.ones(4)..f/given/" + name;
  recorded.spec.source = "python-handoff";
  recorded.spec.library = "numpy.ones(4)";
  recorded.spec.consumer_library = "f";
  recorded.spec.cell = "given";
  recorded.result = suite::CaseResult(recorded.spec.id, outcome, std::move(message));
  recorded.result.evidence = std::move(evidence);
  return recorded;
}

json emitted_ok() {
  return {{"emitted", {{"capsule", "dltensor_versioned"}, {"shape", {4}}}},
          {"producer_findings", json::array()}};
}

json first_handoff(const suite::CheckRun& run) {
  return json::parse(handoff_document(run)).at("handoffs").at(0);
}

TEST(HandoffStory, ACrashIsChargedToTheSideWhoseCallWasRunning) {
  suite::CheckRun run;
  run.cases = {step("emitted", Outcome::pass, "the producer emitted ...", emitted_ok()),
               step("direct", Outcome::crash,
                    "the case died on signal 11 in \"the consumer: f(x), x offering ...\"")};
  json handoff = first_handoff(run);
  EXPECT_EQ(handoff.at("fault"), "consumer");
  EXPECT_EQ(handoff.at("outcome"), "crash");
  run.cases[1].result.message = "the case died on signal 11 in \"the producer: x.__dlpack__()\"";
  EXPECT_EQ(first_handoff(run).at("fault"), "producer");
  run.cases[1].result.message = "the case died on signal 11";
  EXPECT_EQ(first_handoff(run).at("fault"), "unknown");
}

TEST(HandoffStory, ABrokenCapsuleIsTheProducersWhateverTheConsumerDid) {
  suite::CheckRun run;
  run.cases = {step("emitted", Outcome::fail, "rule DLP-SHAPE-NEGATIVE: ..."),
               step("direct", Outcome::pass, "the consumer accepted ...",
                    {{"fault", "producer"}, {"consumer", {{"action", "accepted"}}}})};
  run.cases[0].result.add_finding({"DLP-SHAPE-NEGATIVE", rules::Severity::error, "shape -1"});
  json handoff = first_handoff(run);
  EXPECT_EQ(handoff.at("fault"), "producer");
  EXPECT_EQ(handoff.at("outcome"), "fail");
  EXPECT_NE(handoff.at("verdict").get<std::string>().find("DLP-SHAPE-NEGATIVE"), std::string::npos);
}

TEST(HandoffStory, WrongDataIsTheConsumersAndADeclineIsNobodys) {
  suite::CheckRun run;
  run.cases = {step("emitted", Outcome::pass, "", emitted_ok()),
               step("direct", Outcome::fail, "the consumer's result: ...",
                    {{"fault", "consumer"}, {"consumer", {{"action", "accepted"}}}}),
               step("host-copy", Outcome::not_supported, "the tensor is in host memory already",
                    {{"code", "f(numpy.from_dlpack(x, device=\"cpu\", copy=True))"}})};
  run.cases[1].result.add_finding({"DLP-CONSUMER-CHECKSUM", rules::Severity::error, "differs"});
  json handoff = first_handoff(run);
  EXPECT_EQ(handoff.at("fault"), "consumer");
  EXPECT_EQ(handoff.at("remedies").at(0).at("result"), "not tried");
  // Remedies are told where the handoff failed.
  EXPECT_NE(handoff_story(run, 0).find("remedies, each tried:"), std::string::npos);

  run.cases[1].result = suite::CaseResult(run.cases[1].spec.id, Outcome::not_supported,
                                          "the consumer declined: BufferError (no)");
  run.cases[1].result.exchange = suite::ExchangeOutcome::declined;
  run.cases[1].result.evidence = {{"fault", "none"}, {"consumer", {{"action", "declined"}}}};
  handoff = first_handoff(run);
  EXPECT_EQ(handoff.at("fault"), "none");
  EXPECT_EQ(handoff.at("verdict"), "declined: no one's fault (a library may decline any tensor)");
}

TEST(HandoffStory, AWorkingHandoffNeedsNoRemedy) {
  suite::CheckRun run;
  run.cases = {step("emitted", Outcome::pass, "", emitted_ok()),
               step("direct", Outcome::pass, "the consumer accepted; its result equals ...",
                    {{"fault", "none"}}),
               step("legacy-capsule", Outcome::pass, "the consumer accepted")};
  std::string story = handoff_story(run, 0);
  EXPECT_NE(story.find("remedies  none needed"), std::string::npos) << story;
  EXPECT_EQ(story.find("REMEDY"), std::string::npos) << story;
  EXPECT_EQ(first_handoff(run).at("remedies").at(0).at("result"), "worked");
}

}  // namespace
}  // namespace dlpack_usm::report
