// The consumer model on the observation table both languages share
// (tests/data/consumer_observations.json): the C++ judge gives each
// observation its expected class, status and rules, as the bridge must for
// Python (python/tests/test_consumer_verdict.py).
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "matrix/consumer_verdict.hpp"

namespace dlpack_usm::matrix {
namespace {

nlohmann::json observation_table() {
  std::ifstream file(std::string(DLPACK_USM_SOURCE_DIR) + "/tests/data/consumer_observations.json");
  return nlohmann::json::parse(file);
}

TEST(ConsumerVerdict, EveryObservationOfTheTableGetsItsVerdict) {
  nlohmann::json table = observation_table();
  ASSERT_GT(table["observations"].size(), 20u);
  for (const nlohmann::json& row : table["observations"]) {
    SCOPED_TRACE(row["name"].get<std::string>());
    ConsumerVerdict verdict = judge_consumer(observation_from_json(row["observation"]));
    const nlohmann::json& expect = row["expect"];
    EXPECT_EQ(verdict.profile_class,
              expect["outcome"].is_null() ? "" : expect["outcome"].get<std::string>());
    EXPECT_EQ(to_string(verdict.status), expect["status"].get<std::string>());
    std::vector<std::string> rules;
    for (const ConsumerFinding& finding : verdict.findings) rules.push_back(finding.rule_id);
    EXPECT_EQ(rules, expect["rules"].get<std::vector<std::string>>());
  }
}

TEST(ConsumerVerdict, ObservationsSurviveTheirJsonForm) {
  // The table outlives the loop: a range-for over a member of a temporary
  // would read freed memory.
  nlohmann::json table = observation_table();
  for (const nlohmann::json& row : table["observations"]) {
    ConsumerObservation seen = observation_from_json(row["observation"]);
    ConsumerObservation again = observation_from_json(observation_to_json(seen));
    EXPECT_EQ(verdict_to_json(judge_consumer(seen)), verdict_to_json(judge_consumer(again)))
        << row["name"];
  }
}

TEST(ConsumerVerdict, ADeclineKeepsItsReasonAndExceptionAsFields) {
  ConsumerObservation seen;
  seen.cell = "c-order";
  seen.action = ConsumerAction::declined;
  seen.reason = "BufferError (no USM)";
  seen.exception_type = "BufferError";
  ConsumerVerdict verdict = judge_consumer(seen);
  EXPECT_EQ(verdict.decline_reason, "BufferError (no USM)");
  EXPECT_EQ(verdict.exception_type, "BufferError");
  EXPECT_EQ(verdict.status, ConsumerStatus::not_supported);
}

TEST(ConsumerVerdict, AMalformedObservationIsAUsageError) {
  for (const char* text : {R"([])", R"({"cell": "c-order", "action": "slept"})",
                           R"({"action": "accepted"})", R"({"cell": "c", "valid": "yes"})"}) {
    EXPECT_THROW(observation_from_json(nlohmann::json::parse(text)), Error) << text;
  }
}

TEST(ConsumerVerdict, EveryProfileClassHasOneSymbol) {
  std::set<char> symbols;
  for (const ProfileClassInfo& info : profile_classes()) {
    EXPECT_TRUE(symbols.insert(info.symbol).second) << info.name;
  }
  EXPECT_EQ(symbols.size(), 8u);
}

}  // namespace
}  // namespace dlpack_usm::matrix
