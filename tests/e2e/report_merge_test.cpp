// `dlpack-usm report merge` as a CI fleet uses it: the shards of one run
// give the unsharded verdict, exit code, JUnit and failures file; shards that
// do not fit together (repeated, missing, of another suite or selection) are
// usage errors; runs of different machines stay apart by their labels.
// (tests/tools/report_merge_test.sh compares a merge of the full default
// suite with the unsharded run.)
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ReportMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("dlpack-usm-merge-{}-{}", getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "suite/vectors");
    // Three vectors of one shipped capsule: two whose manifest entries are
    // right and one that claims a rule the capsule does not break.
    fs::path capsule = source_path("conformance/vectors/shape/strides-null-1.2.json");
    for (const char* name : {"a", "b", "wrong"}) {
      fs::copy_file(capsule, dir_ / "suite/vectors" / (std::string(name) + ".json"));
    }
    std::ofstream(dir_ / "suite/manifest.json") << R"({"vectors": [
      {"file": "vectors/a.json", "expect": ["DLP-STRIDES-NULL"]},
      {"file": "vectors/b.json", "expect": ["DLP-STRIDES-NULL"]},
      {"file": "vectors/wrong.json", "expect": ["DLP-SHAPE-NULL"]}]})";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `check` on the three-vector suite and returns its report's path.
  std::string shard_report(const std::string& name, std::vector<std::string> extra) {
    std::string report = (dir_ / name).string();
    std::vector<std::string> arguments{
        "check", "--suite", (dir_ / "suite").string(), "--filter", "vector/*", "--report", report};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    ToolResult result = run_tool(arguments);
    EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.err;
    return report;
  }

  ToolResult merge(std::vector<std::string> reports, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments{"report", "merge"};
    arguments.insert(arguments.end(), reports.begin(), reports.end());
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return run_tool(arguments);
  }

  json read_json(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
  }

  std::string read_text(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

// (id, outcome, verdict) of every case of a report.
std::set<std::string> verdicts(const json& report) {
  std::set<std::string> found;
  for (const json& entry : report["results"]) {
    found.insert(entry["id"].get<std::string>() + " " + entry["outcome"].get<std::string>() + " " +
                 entry["verdict"].get<std::string>());
  }
  return found;
}

TEST_F(ReportMerge, ShardsGiveTheVerdictsExitCodeAndFailuresOfTheUnshardedRun) {
  std::string whole = shard_report("whole.json", {});
  std::vector<std::string> shards;
  for (const char* shard : {"1/2", "2/2"}) {
    shards.push_back(shard_report(std::string("shard") + shard[0] + ".json", {"--shard", shard}));
  }
  ToolResult merged = merge(
      shards, {"--report", (dir_ / "merged.json").string(), "--junit",
               (dir_ / "merged.xml").string(), "--failures", (dir_ / "failures.txt").string()});
  EXPECT_EQ(merged.exit_code, 1) << merged.out << merged.err;
  EXPECT_NE(merged.out.find("regression vector/wrong: fail"), std::string::npos) << merged.out;
  EXPECT_EQ(verdicts(read_json("merged.json")), verdicts(read_json(fs::path(whole).filename())));
  json report = read_json("merged.json");
  EXPECT_EQ(report["summary"]["gate"], "failed");
  EXPECT_EQ(report["runs"].size(), 2u);
  EXPECT_NE(read_text("failures.txt").find("vector/wrong  # fail"), std::string::npos);
  EXPECT_NE(read_text("merged.xml").find("<failure"), std::string::npos);

  // The merged failures file is the baseline of every shard: then all pass.
  std::vector<std::string> baselined;
  for (const char* shard : {"1/2", "2/2"}) {
    baselined.push_back(
        shard_report(std::string("baselined") + shard[0] + ".json",
                     {"--shard", shard, "--baseline", (dir_ / "failures.txt").string()}));
  }
  ToolResult green = merge(baselined);
  EXPECT_EQ(green.exit_code, 0) << green.out << green.err;
  EXPECT_NE(green.out.find("1 expected failure"), std::string::npos) << green.out;
}

TEST_F(ReportMerge, RepeatedMissingAndForeignShardsAreUsageErrors) {
  std::string first = shard_report("s1.json", {"--shard", "1/2"});
  std::string second = shard_report("s2.json", {"--shard", "2/2"});
  std::string whole = shard_report("whole.json", {});
  std::string other_filter = (dir_ / "other.json").string();
  run_tool({"check", "--suite", (dir_ / "suite").string(), "--filter", "vector/a", "--shard", "2/2",
            "--allow-empty", "--report", other_filter});
  std::string other_suite = (dir_ / "default.json").string();
  run_tool({"check", "--vectors-only", "--shard", "2/2", "--report", other_suite});
  std::string not_a_report = (dir_ / "suite/manifest.json").string();

  struct Refusal {
    std::vector<std::string> reports;
    std::string says;
  };
  for (const Refusal& refusal : std::vector<Refusal>{
           {{first, second, first}, "are both shard 1/2"},
           {{first}, "lack shard 2/2"},
           {{whole, first}, "their shard counts differ"},
           {{first, other_filter}, "their selections"},
           {{first, other_suite}, "their suites"},
           {{first, not_a_report}, "not a check report"},
           {{first, "/dev/zero"}, "is not a regular file"},
           {{first, (dir_ / "absent.json").string()}, "cannot read"},
       }) {
    ToolResult result = merge(refusal.reports);
    EXPECT_EQ(result.exit_code, 2) << refusal.says << ": " << result.err;
    EXPECT_NE(result.err.find(refusal.says), std::string::npos) << result.err;
  }
}

TEST_F(ReportMerge, LabelledRunsOfDifferentMachinesStayApart) {
  std::string here = shard_report("here.json", {"--label", "cpu"});
  std::vector<std::string> there;
  for (const char* shard : {"1/2", "2/2"}) {
    there.push_back(shard_report(std::string("there") + shard[0] + ".json",
                                 {"--shard", shard, "--label", "gpu"}));
  }
  std::vector<std::string> all = there;
  all.push_back(here);
  ToolResult merged = merge(all, {"--report", (dir_ / "merged.json").string()});
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  json report = read_json("merged.json");
  std::set<std::string> ids;
  for (const json& entry : report["results"]) {
    if (entry["outcome"] != "skipped") ids.insert(entry["id"].get<std::string>());
  }
  EXPECT_EQ(ids, (std::set<std::string>{"cpu/vector/a", "cpu/vector/b", "cpu/vector/wrong",
                                        "gpu/vector/a", "gpu/vector/b", "gpu/vector/wrong"}));
  EXPECT_EQ(report["summary"]["verdicts"]["regression"], 2);

  // Without labels the same runs overlap.
  std::string unlabelled = shard_report("unlabelled.json", {});
  ToolResult overlap = merge({unlabelled, unlabelled});
  EXPECT_EQ(overlap.exit_code, 2);
  EXPECT_EQ(run_tool({"check", "--label", "no/slash"}).exit_code, 2);
}

}  // namespace
}  // namespace dlpack_usm::e2e
