// DLP-RUNTIME-QUEUE-ORDER's judge of the C plugins' stream case, over the
// vectors the Python engine's judge_controls runs too
// (fixtures/runtime/queue_order_vectors.json): a failing row names the
// runtime once and blocks exactly its `blocked` kinds, a passing row names
// nothing and blocks nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "rules/rule_ids.hpp"
#include "suite/cases/producer/queue_order_verdict.hpp"

namespace dlpack_usm::suite {
namespace {

nlohmann::json queue_order_vectors() {
  std::ifstream in(std::filesystem::path(DLPACK_USM_SOURCE_DIR) / "fixtures" / "runtime" /
                   "queue_order_vectors.json");
  EXPECT_TRUE(in) << "cannot open fixtures/runtime/queue_order_vectors.json";
  return nlohmann::json::parse(in).at("vectors");
}

std::vector<QueueControl> controls_of(const nlohmann::json& row) {
  std::vector<QueueControl> controls;
  for (const auto& entry : row.at("controls")) {
    QueueControl control;
    control.kind = entry.at("kind").get<std::string>();
    control.attempts = entry.value("attempts", 0);
    control.stale = entry.value("stale", 0);
    control.why_not = entry.value("why_not", std::string());
    controls.push_back(control);
  }
  return controls;
}

TEST(QueueOrderVerdict, EveryVectorGivesTheVerdictItsRowNames) {
  std::string rule(rules::ids::kRuntimeQueueOrder);
  int rows = 0;
  for (const auto& row : queue_order_vectors()) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    QueueOrderVerdict verdict =
        judge_queue_controls(row.at("runtime").get<std::string>(), controls_of(row));
    bool failing = row.contains("expect");
    EXPECT_EQ(!verdict.runtime_finding.empty(), failing);
    if (failing) {
      EXPECT_EQ(row.at("expect"), nlohmann::json::array({rule}));
      // Named once, with the runtime and the rule.
      EXPECT_NE(verdict.runtime_finding.find(row.at("runtime").get<std::string>()),
                std::string::npos);
      EXPECT_EQ(verdict.runtime_finding.find("rule " + rule), 0u);
    }
    std::vector<std::string> blocked;
    for (const auto& [kind, why] : verdict.blocked) {
      blocked.push_back(kind);
      EXPECT_NE(why.find("blocked by " + rule), std::string::npos);
    }
    EXPECT_EQ(nlohmann::json(blocked), row.at("blocked"));
    ++rows;
  }
  EXPECT_GE(rows, 4);
}

TEST(QueueOrderVerdict, AControlThatCouldNotRunSaysWhyAndBlocksNothing) {
  QueueOrderVerdict verdict =
      judge_queue_controls("a runtime", {{"an out-of-order cl_command_queue", 0, 0, "no fill"}});
  EXPECT_TRUE(verdict.runtime_finding.empty());
  EXPECT_TRUE(verdict.blocked.empty());
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("not run, no fill"), std::string::npos);
}

}  // namespace
}  // namespace dlpack_usm::suite
