// The class of a consumer case in the capability profile: the worker's
// judgement where it gave one, else what the runner saw (crash, hang).
#include <gtest/gtest.h>

#include "rules/rule_ids.hpp"
#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::suite {
namespace {

RecordedCase consumer_case(Outcome outcome, std::string axis = "layout") {
  RecordedCase recorded;
  recorded.spec.id = "consumer/opencl:cpu:0/device/c-order";
  recorded.spec.source = "consumer";
  recorded.spec.device = "opencl:cpu:0";
  recorded.spec.profile_axis = std::move(axis);
  recorded.spec.profile_value = "c-order";
  recorded.result = CaseResult(recorded.spec.id, outcome, "what happened");
  return recorded;
}

TEST(ProfileClass, TheWorkersJudgementComesFirst) {
  RecordedCase recorded = consumer_case(Outcome::not_supported);
  recorded.result.profile_class = "declined";
  EXPECT_EQ(profile_class(recorded), "declined");
}

TEST(ProfileClass, WhatTheRunnerChargedHasItsClass) {
  EXPECT_EQ(profile_class(consumer_case(Outcome::crash)), "crash");
  EXPECT_EQ(profile_class(consumer_case(Outcome::timeout)), "hang");
  RecordedCase misuse = consumer_case(Outcome::fail);
  misuse.result.add_finding(
      {std::string(rules::ids::kConsumerCallsNullDeleter), rules::Severity::error, "NULL"});
  EXPECT_EQ(profile_class(misuse), "deleter-misuse");
}

TEST(ProfileClass, CasesOutsideTheProfileOrNeverJudgedHaveNone) {
  EXPECT_EQ(profile_class(consumer_case(Outcome::pass, "")), "");
  EXPECT_EQ(profile_class(consumer_case(Outcome::skipped)), "");
  EXPECT_EQ(profile_class(consumer_case(Outcome::error)), "");
}

TEST(ProfileClass, TheProfileListsJudgedCasesWithTheirReasonAndGateEffect) {
  CheckRun run;
  run.cases.push_back(consumer_case(Outcome::crash));
  run.cases.push_back(consumer_case(Outcome::skipped));
  RecordedCase declined = consumer_case(Outcome::not_supported);
  declined.result.profile_class = "declined";
  declined.result.decline_reason = "no such dtype";
  run.cases.push_back(declined);
  std::vector<ProfileEntry> profile = capability_profile(run);
  ASSERT_EQ(profile.size(), 2u);
  EXPECT_EQ(profile[0].outcome, "crash");
  EXPECT_TRUE(profile[0].failed);
  EXPECT_EQ(profile[1].outcome, "declined");
  EXPECT_EQ(profile[1].reason, "no such dtype");
  EXPECT_FALSE(profile[1].failed);
}

}  // namespace
}  // namespace dlpack_usm::suite
