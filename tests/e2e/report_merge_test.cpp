// `dlpack-usm report merge` as a CI fleet uses it: the shards of one run
// give the unsharded verdict, exit code, JUnit and failures file; shards that
// do not fit together (repeated, missing, of another suite or selection) are
// usage errors; runs of different machines stay apart by their labels.
// (tests/tools/report_merge_test.sh compares a merge of the full default
// suite with the unsharded run.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "merge_suite.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ReportMerge = MergeSuite;

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
  EXPECT_NE(merged.out.find("regression: 1 case, fail\n"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("case: vector/wrong\n"), std::string::npos) << merged.out;
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
  ToolResult green = merge(baselined, {"--baseline", path("failures.txt")});
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

// --expect names the fleet: a machine kind whose jobs uploaded nothing (the
// gpu label absent), a label with another shard count, or a label not
// expected is a usage error, never a green gate; the whole fleet merges.
TEST_F(ReportMerge, AFleetWithAMachineKindMissingNeverPasses) {
  std::string here = shard_report("fleet-cpu.json", {"--label", "cpu"});
  std::vector<std::string> there;
  for (const char* shard : {"1/2", "2/2"}) {
    there.push_back(shard_report(std::string("fleet-gpu") + shard[0] + ".json",
                                 {"--shard", shard, "--label", "gpu"}));
  }
  std::vector<std::string> whole = there;
  whole.push_back(here);
  // The gate's own verdict (vector/wrong fails: 1), the fleet being whole.
  EXPECT_EQ(merge(whole, {"--expect", "cpu", "--expect", "gpu:2"}).exit_code, 1);
  // Without --expect the reports that arrived are merged as the whole
  // fleet: what --expect is for.
  EXPECT_EQ(merge({here}).exit_code, 1);
  ToolResult missing = merge({here}, {"--expect", "cpu:1", "--expect", "gpu:2"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("no report is labelled \"gpu\""), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("half-merged"), std::string::npos) << missing.err;
  EXPECT_EQ(merge(whole, {"--expect", "cpu", "--expect", "gpu:3"}).exit_code, 2);
  ToolResult stranger = merge(whole, {"--expect", "gpu:2"});
  EXPECT_EQ(stranger.exit_code, 2);
  EXPECT_NE(stranger.err.find("not among the --expect labels"), std::string::npos) << stranger.err;
  for (const char* wrong : {"gpu:0", "gpu:x", ":2", ""}) {
    EXPECT_EQ(merge(whole, {"--expect", wrong}).exit_code, 2) << wrong;
  }
}

// Reports are files anyone can edit: a merge decides every verdict again
// and checks the case ids against the suite, so none of these edits of a
// failing shard turns the gate green (each was exit 0 before).
TEST_F(ReportMerge, ForgedVerdictsAttemptsAndCaseIdsAreRefused) {
  std::vector<std::string> shards = two_shards("shard");
  json original = read_json(shards[0]);
  struct Forgery {
    const char* what;
    std::function<void(json&)> edit;
    const char* says;
  };
  const std::vector<Forgery> forgeries{
      {"a failing outcome with the verdict ok",
       [](json& r) { result_of(r, "vector/wrong")["verdict"] = "ok"; }, "has the verdict ok"},
      {"flaky with one attempt",
       [](json& r) {
         result_of(r, "vector/wrong")
             .update({{"verdict", "flaky"}, {"attempts", 1}, {"first_outcome", nullptr}});
       },
       "has the verdict flaky"},
      {"a re-run that passed, in one attempt",
       [](json& r) {
         result_of(r, "vector/wrong")
             .update({{"outcome", "pass"},
                      {"verdict", "flaky"},
                      {"attempts", 1},
                      {"first_outcome", "fail"}});
       },
       "a first outcome is recorded exactly for a re-run"},
      {"the failing id renamed",
       [](json& r) { result_of(r, "vector/wrong")["id"] = "vector/renamed"; },
       "are not their suite's"},
      {"the failing case replaced by a skipped filler",
       [](json& r) {
         result_of(r, "vector/wrong")
             .update({{"outcome", "skipped"},
                      {"verdict", "ok"},
                      {"attempts", 0},
                      {"first_outcome", nullptr},
                      {"findings", json::array()}});
       },
       "is skipped, but the run's selection runs it"},
      {"a suite digest that differs after its 12th hex digit",
       [](json& r) {
         std::string digest = r["options"]["suite_digest"];
         digest.back() = digest.back() == '0' ? '1' : '0';
         r["options"]["suite_digest"] = digest;
       },
       "their suites"},
  };
  for (const Forgery& forgery : forgeries) {
    SCOPED_TRACE(forgery.what);
    json forged = original;
    forgery.edit(forged);
    write_json("forged.json", forged);
    ToolResult result = merge({path("forged.json"), shards[1]});
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find(forgery.says), std::string::npos) << result.err;
  }
}

TEST_F(ReportMerge, AFailingCaseMovedToAShardThatPassedIsRefused) {
  std::vector<std::string> shards = two_shards("shard");
  json from = read_json(shards[0]), to = read_json(shards[1]);
  json wrong = result_of(from, "vector/wrong");
  from["results"].erase(std::find(from["results"].begin(), from["results"].end(), wrong));
  to["results"].push_back(wrong);
  write_json("from.json", from);
  write_json("to.json", to);
  ToolResult moved = merge({path("from.json"), path("to.json")});
  EXPECT_EQ(moved.exit_code, 2) << moved.err;
  EXPECT_NE(moved.err.find("case \"vector/wrong\" is not in shard"), std::string::npos)
      << moved.err;
}

// dlpack-usm-report(1): exit 0 only when no run was interrupted, whatever
// the summary says and wherever the baseline expected the cases to fail.
TEST_F(ReportMerge, AnInterruptedRunFailsTheGate) {
  std::string baseline = path("baseline.txt");
  std::ofstream(baseline) << "vector/wrong\n";
  std::vector<std::string> shards = two_shards("shard", {"--baseline", baseline});
  ToolResult green = merge(shards, {"--baseline", baseline});
  ASSERT_EQ(green.exit_code, 0) << green.out << green.err;

  json said = read_json(shards[0]);
  said["summary"]["interrupted"] = true;
  write_json("said.json", said);
  json not_run = read_json(shards[0]);
  result_of(not_run, "vector/wrong")
      .update({{"outcome", "not_run"}, {"attempts", 0}, {"first_outcome", nullptr}});
  write_json("not-run.json", not_run);
  for (const char* name : {"said.json", "not-run.json"}) {
    SCOPED_TRACE(name);
    ToolResult result = merge({path(name), shards[1]}, {"--baseline", baseline});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_NE(result.out.find("gate: FAILED"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("interrupted"), std::string::npos) << result.out;
  }
}

// A shard that --max-failures stopped says why in its summary; the merged
// report says it too, each reason once, with its run's label.
TEST_F(ReportMerge, TheReasonsAShardStoppedEarlyAreKept) {
  std::vector<std::string> shards = two_shards("shard", {"--label", "cpu"});
  const std::string reason = "the run stopped after 1 failure (--max-failures 1)";
  json stopped = read_json(shards[1]);
  stopped["summary"]["stop_reasons"] = json::array({reason, reason});
  result_of(stopped, "vector/b")
      .update({{"outcome", "not_run"},
               {"verdict", "regression"},
               {"attempts", 0},
               {"message", reason}});
  write_json("stopped.json", stopped);
  ToolResult result = merge({shards[0], path("stopped.json")}, {"--report", path("merged.json")});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("1 case not run: cpu: " + reason), std::string::npos) << result.out;
  EXPECT_EQ(read_json("merged.json")["summary"]["stop_reasons"], json::array({"cpu: " + reason}));
  json older = read_json(shards[1]);
  older["summary"].erase("stop_reasons");
  write_json("older.json", older);
  ToolResult without = merge({shards[0], path("older.json")}, {"--report", path("merged.json")});
  EXPECT_EQ(without.exit_code, 1) << without.out << without.err;
  EXPECT_EQ(read_json("merged.json")["summary"]["stop_reasons"], json::array());
}

// The merge reads the expectation files themselves: a run's baseline is
// named by its SHA-256, and verdicts are decided from the file the merge is
// given, not from what the report says they were.
TEST_F(ReportMerge, VerdictsComeFromTheExpectationFilesGivenToTheMerge) {
  std::string baseline = path("baseline.txt");
  std::ofstream(baseline) << "vector/wrong\n";
  std::vector<std::string> shards = two_shards("shard", {"--baseline", baseline});

  ToolResult without = merge(shards);
  EXPECT_EQ(without.exit_code, 2) << without.err;
  EXPECT_NE(without.err.find("its run used --baseline"), std::string::npos) << without.err;
  EXPECT_NE(without.err.find("give 'report merge' the same file with --baseline"),
            std::string::npos)
      << without.err;

  std::string other = path("other.txt");
  std::ofstream(other) << "vector/wrong\nvector/a\n";
  ToolResult another = merge(shards, {"--baseline", other});
  EXPECT_EQ(another.exit_code, 2) << another.err;

  // A flakes file with the baseline's content is not the baseline.
  ToolResult as_flakes = merge(shards, {"--flakes", baseline});
  EXPECT_EQ(as_flakes.exit_code, 2) << as_flakes.err;

  ToolResult merged = merge(shards, {"--baseline", baseline, "--report", path("merged.json")});
  EXPECT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  json expectations = read_json("merged.json")["expectations"];
  ASSERT_EQ(expectations.size(), 1u) << expectations;
  EXPECT_EQ(expectations[0]["path"], baseline);
  EXPECT_EQ(expectations[0]["entries"], 1);
}

// The second run of 'report merge dir/*.json --report dir/merged.json' finds
// the first run's merged report among its inputs.
TEST_F(ReportMerge, AnOutputNamingAnInputIsRefusedAndAMergedReportIsNoInput) {
  std::vector<std::string> shards = two_shards("shard");
  std::string before = read_text(shards[0]);
  for (const char* option : {"--report", "--junit", "--failures"}) {
    SCOPED_TRACE(option);
    ToolResult result = merge(shards, {option, shards[0]});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(
                  fmt::format("{} {} is also one of the reports to merge", option, shards[0])),
              std::string::npos)
        << result.err;
    EXPECT_EQ(read_text(shards[0]), before);
  }

  ToolResult first = merge(shards, {"--report", path("merged.json")});
  ASSERT_EQ(first.exit_code, 1) << first.err;
  std::vector<std::string> again = shards;
  again.push_back(path("merged.json"));
  ToolResult second = merge(again, {"--report", path("merged.json")});
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("is also one of the reports to merge"), std::string::npos)
      << second.err;

  ToolResult merged_input = merge(again, {"--report", path("remerged.json")});
  EXPECT_EQ(merged_input.exit_code, 2) << merged_input.err;
  EXPECT_NE(merged_input.err.find("it is a merged report (written by 'report merge')"),
            std::string::npos)
      << merged_input.err;
  EXPECT_EQ(merged_input.err.find("older dlpack-usm"), std::string::npos) << merged_input.err;
}

// The fields a record gained in /3: its place in the matrix and its exchange.
void erase_record_fields_of_the_third_schema(json& report) {
  for (json& entry : report["results"]) {
    for (const char* key :
         {"place", "exchange", "decline_reason", "exception", "emitted", "evidence", "worker"}) {
      entry.erase(key);
    }
  }
}

// A report written before the records had their places (schema
// dlpack-usm.report/2) merges with one of today's; the merged report is /3.
TEST_F(ReportMerge, AReportOfTheSecondSchemaStillMerges) {
  std::vector<std::string> shards = two_shards("shard");
  json old = read_json(shards[0]);
  ASSERT_EQ(old["schema"], "dlpack-usm.report/3");
  old["schema"] = "dlpack-usm.report/2";
  erase_record_fields_of_the_third_schema(old);
  write_json("old.json", old);
  ToolResult merged = merge({path("old.json"), shards[1]}, {"--report", path("merged.json")});
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_NE(merged.out.find("vector/wrong"), std::string::npos) << merged.out;
  json report = read_json("merged.json");
  EXPECT_EQ(report["schema"], "dlpack-usm.report/3");
  for (const json& entry : report["results"]) {
    EXPECT_TRUE(entry.contains("place") && entry["place"].is_null()) << entry.dump();
  }
}

// A report written before the envelope (schema dlpack-usm.report/1: "tool"
// an object at the top and in the environment, no "version", no "file" in
// the results) merges with one of today's; the merged report is /3 through
// and through.
TEST_F(ReportMerge, AReportOfTheFirstSchemaStillMerges) {
  std::vector<std::string> shards = two_shards("shard");
  json old = read_json(shards[0]);
  ASSERT_EQ(old["schema"], "dlpack-usm.report/3");
  std::string version = old["version"];
  erase_record_fields_of_the_third_schema(old);
  old["schema"] = "dlpack-usm.report/1";
  old["tool"] = {{"name", "dlpack-usm"}, {"version", version}};
  old.erase("version");
  json& environment = old["environment"];
  for (const char* key : {"schema", "tool", "version"}) environment.erase(key);
  environment["tool"] = {{"name", "dlpack-usm"}, {"version", version}};
  for (json& entry : old["results"]) entry.erase("file");
  write_json("old.json", old);

  ToolResult merged = merge({path("old.json"), shards[1]}, {"--report", path("merged.json")});
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_NE(merged.out.find("regression: 1 case"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("vector/wrong"), std::string::npos) << merged.out;
  json report = read_json("merged.json");
  EXPECT_EQ(report["schema"], "dlpack-usm.report/3");
  EXPECT_EQ(report["tool"], "dlpack-usm");
  EXPECT_EQ(report["version"], version);
  EXPECT_EQ(report["environment"]["schema"], "dlpack-usm.inventory/1");
  EXPECT_EQ(report["environment"]["version"], version);
  EXPECT_FALSE(report["environment"]["tool"].is_object());
  EXPECT_EQ(report["runs"].size(), 2u);

  // A /3 report whose tool is another's is no report of this tool.
  json foreign = read_json(shards[0]);
  foreign["tool"] = "another-tool";
  write_json("foreign.json", foreign);
  ToolResult refused = merge({path("foreign.json"), shards[1]});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("/tool is \"another-tool\", not \"dlpack-usm\""), std::string::npos)
      << refused.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
