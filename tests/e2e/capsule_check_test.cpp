// `dlpack-usm capsule check` as a user runs it: findings per tensor, exit 1
// on errors (and on warnings with --strict), 0 otherwise, 2 when a file
// cannot be read (the other files are still checked).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

std::string sample(const std::string& name) {
  return source_path("tests/data/capsules/" + name);
}

TEST(CapsuleCheck, CleanFilesExitZeroAndListEveryTensor) {
  ToolResult result = run_tool(
      {"capsule", "check", sample("oneapi-f-order.json"), sample("legacy-and-versioned.json")});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("DLP-VERSION-LEGACY"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("checked 3 tensors in 2 files: 0 errors"), std::string::npos)
      << result.out;
}

TEST(CapsuleCheck, AnErrorFindingExitsOne) {
  ToolResult result = run_tool({"capsule", "check", sample("three-tensors.jsonl")});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("error     DLP-VERSION-MAJOR  version.major"), std::string::npos)
      << result.out;
}

TEST(CapsuleCheck, JsonReportsFindingsPerTensor) {
  ToolResult result = run_tool({"capsule", "check", "--json", sample("three-tensors.jsonl")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  json doc = json::parse(result.out);
  EXPECT_FALSE(doc["strict"]);
  EXPECT_EQ(doc["exit_code"], 1);
  ASSERT_EQ(doc["files"].size(), 1U);
  EXPECT_TRUE(doc["files"][0]["error"].is_null());
  const json& tensors = doc["files"][0]["tensors"];
  ASSERT_EQ(tensors.size(), 3U);
  EXPECT_EQ(tensors[1]["origin"], sample("three-tensors.jsonl") + "#1");
  EXPECT_EQ(tensors[1]["counts"]["error"], 1);
  bool found = false;
  for (const json& finding : tensors[1]["findings"]) {
    if (finding["rule_id"] == "DLP-VERSION-MAJOR") {
      found = true;
      EXPECT_EQ(finding["severity"], "error");
      EXPECT_EQ(finding["field"], "version.major");
      EXPECT_FALSE(finding["message"].get<std::string>().empty());
    }
  }
  EXPECT_TRUE(found) << tensors[1].dump();
  EXPECT_EQ(doc["summary"]["tensors"], 3);
  EXPECT_EQ(doc["summary"]["findings"]["error"], 1);
}

TEST(CapsuleCheck, StrictFailsOnWarnings) {
  ToolResult lenient = run_tool({"capsule", "check", sample("vector-lanes-warning.json")});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
  EXPECT_NE(lenient.out.find("DLP-DTYPE-LANES-VECTOR"), std::string::npos) << lenient.out;
  ToolResult strict =
      run_tool({"capsule", "check", "--strict", sample("vector-lanes-warning.json")});
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  ToolResult strict_json =
      run_tool({"capsule", "check", "--strict", "--json", sample("vector-lanes-warning.json")});
  EXPECT_EQ(strict_json.exit_code, 1);
  EXPECT_TRUE(json::parse(strict_json.out)["strict"]);
}

TEST(CapsuleCheck, AnUnreadableFileExitsTwoAndTheOthersAreStillChecked) {
  std::string broken = source_path("tests/data/hostile/typo-key.json");
  ToolResult result =
      run_tool({"capsule", "check", "--json", broken, sample("oneapi-f-order.json")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("dlpack-usm: error: " + broken), std::string::npos) << result.err;
  json doc = json::parse(result.out);
  ASSERT_EQ(doc["files"].size(), 2U);
  EXPECT_NE(doc["files"][0]["error"]["message"].get<std::string>().find("/dl_tensor/stride"),
            std::string::npos);
  EXPECT_EQ(doc["files"][1]["tensors"].size(), 1U);
  EXPECT_EQ(doc["summary"]["unreadable_files"], 1);
}

TEST(CapsuleCheck, EveryConformanceVectorIsReadable) {
  ToolResult result = run_tool({"capsule", "check", "--json",
                                source_path("conformance/vectors/shape/strides-null-1.2.json")});
  ASSERT_NE(result.exit_code, 2) << result.err;
  json doc = json::parse(result.out);
  bool fired = false;
  for (const json& finding : doc["files"][0]["tensors"][0]["findings"]) {
    fired = fired || finding["rule_id"] == "DLP-STRIDES-NULL";
  }
  EXPECT_TRUE(fired) << result.out;
  EXPECT_EQ(result.exit_code, 1);
}

}  // namespace
}  // namespace dlpack_usm::e2e
