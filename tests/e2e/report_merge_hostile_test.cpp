// `report merge` on reports that are wrong on purpose or by accident: deep
// nesting, long strings and labels, fields of the wrong type and text that
// would forge lines of the summary. Each is an input error (exit 2) naming
// the file and the JSON pointer of the place, or is escaped where it is
// printed; none crashes the tool, makes it blow up its output, or is an
// internal error (exit 4).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "merge_suite.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;
using ReportMergeHostile = MergeSuite;

// `report` with `text` (JSON) as the first member of its environment.
std::string with_environment_member(const json& report, const std::string& text) {
  std::string dumped = report.dump();
  const std::string key = "\"environment\":{";
  std::size_t at = dumped.find(key);
  if (at == std::string::npos) throw std::runtime_error("no environment");
  return dumped.insert(at + key.size(), "\"a\":" + text + ",");
}

TEST_F(ReportMergeHostile, DeepNestingIsRefusedNamingTheFileAndThePlace) {
  std::vector<std::string> shards = two_shards("shard");
  json report = read_json(shards[0]);
  for (std::size_t depth : {std::size_t{10000}, std::size_t{100000}}) {
    SCOPED_TRACE(depth);
    std::ofstream(path("deep.json"))
        << with_environment_member(report, std::string(depth, '[') + std::string(depth, ']'));
    ToolResult result = merge({path("deep.json"), shards[1]}, {"--report", path("merged.json")});
    EXPECT_EQ(result.exit_code, 2) << result.err.substr(0, 2000);
    EXPECT_NE(result.err.find(path("deep.json") + ": /environment/a/0/0/0"), std::string::npos)
        << result.err.substr(0, 2000);
    EXPECT_NE(result.err.find("nests deeper than 32 levels"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path("merged.json")));
  }
}

TEST_F(ReportMergeHostile, LongLabelsAndStringsAreRefusedAtOnce) {
  std::vector<std::string> shards = two_shards("shard");
  json report = read_json(shards[0]);
  json long_label = report;
  long_label["options"]["label"] = std::string(1 << 20, 'x');
  write_json("label.json", long_label);
  json long_message = report;
  result_of(long_message, "vector/wrong")["message"] = std::string(2 << 20, 'x');
  write_json("message.json", long_message);
  for (const auto& [name, says] :
       {std::pair{"label.json", "/options/label is \"xxx"}, {"message.json", "bytes, more than"}}) {
    SCOPED_TRACE(name);
    auto started = std::chrono::steady_clock::now();
    ToolResult result = merge({path(name), shards[1]});
    auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
    EXPECT_EQ(result.exit_code, 2) << result.err.substr(0, 500);
    EXPECT_NE(result.err.find(says), std::string::npos) << result.err.substr(0, 500);
    EXPECT_LT(result.err.size(), 2000u);
    // Was 23.7 s and 3.7 GB for the label; generous for a loaded CI machine.
    EXPECT_LT(seconds.count(), 10.0);
  }
}

// Every member the merge reads, given a value of another type or removed:
// exit 2 naming the file, never exit 4 ("internal error: json type_error").
void visit_members(const json& value, const std::string& pointer,
                   const std::function<void(const std::string&, const json&)>& visit) {
  visit(pointer, value);
  if (!value.is_structured() || pointer == "/environment") return;
  if (value.is_object()) {
    for (const auto& [key, member] : value.items())
      visit_members(member, pointer + "/" + key, visit);
    return;
  }
  for (std::size_t i = 0; i < value.size() && i < 1; ++i) {
    visit_members(value[i], fmt::format("{}/{}", pointer, i), visit);
  }
}

json of_another_type(const json& value) {
  if (value.is_string()) return 7;
  if (value.is_number()) return "7";
  if (value.is_boolean()) return "true";
  if (value.is_array()) return json::object();
  return json::array();
}

// `report` with the member at `pointer` (of the report reduced to the
// result of vector/wrong: "/results/0/...") given another type, or removed;
// false where it cannot be removed (an array's item, the result itself).
bool mutate(json& report, const std::string& pointer, const json& value, bool remove) {
  json* root = &report;
  json::json_pointer at(pointer);
  if (pointer.starts_with("/results/0")) {
    root = &result_of(report, "vector/wrong");
    at = json::json_pointer(pointer.substr(std::string("/results/0").size()));
  }
  if (!remove) {
    (*root)[at] = of_another_type(value);
    return true;
  }
  if (at.empty() || !root->at(at.parent_pointer()).is_object()) return false;
  root->at(at.parent_pointer()).erase(at.back());
  return true;
}

TEST_F(ReportMergeHostile, WronglyTypedOrMissingFieldsAreInputErrorsNamingTheField) {
  std::string baseline = path("baseline.txt");
  std::ofstream(baseline) << "vector/wrong\n";
  // With a baseline, so that the report names an expectation file.
  std::vector<std::string> shards = two_shards("shard", {"--baseline", baseline});
  json report = read_json(shards[0]);
  // The results of the shard but one: vector/wrong, with findings and a re-run.
  report["results"] = json::array({result_of(report, "vector/wrong")});
  std::size_t mutations = 0;
  visit_members(report, "", [&](const std::string& pointer, const json& value) {
    for (bool remove : {false, true}) {
      json mutated = read_json(shards[0]);
      if (pointer.empty() || !mutate(mutated, pointer, value, remove)) continue;
      write_json("mutated.json", mutated);
      ToolResult result = merge({path("mutated.json"), shards[1]}, {"--baseline", baseline});
      ++mutations;
      SCOPED_TRACE(fmt::format("{} {}", remove ? "without" : "another type at", pointer));
      EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1 || result.exit_code == 2)
          << result.exit_code << ": " << result.err;
      if (result.exit_code == 2) {
        EXPECT_NE(result.err.find("report merge: " + path("mutated.json") + ": "),
                  std::string::npos)
            << result.err;
      }
    }
  });
  EXPECT_GT(mutations, 50u);
}

// Each was exit 4, "internal error: [json.exception.type_error.302]".
TEST_F(ReportMergeHostile, AMemberOfAnotherTypeIsNamedByItsPointer) {
  std::vector<std::string> shards = two_shards("shard");
  for (const auto& [pointer, says] :
       {std::pair{"/started_at", "/started_at is a number, not a string"},
        {"/summary/interrupted", "/summary/interrupted is a number, not true or false"},
        {"/options/label", "/options/label is a number, not a string or null"}}) {
    SCOPED_TRACE(pointer);
    json typed = read_json(shards[0]);
    typed[json::json_pointer(pointer)] = 5;
    write_json("typed.json", typed);
    ToolResult result = merge({path("typed.json"), shards[1]});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("report merge: " + path("typed.json") + ": " + says),
              std::string::npos)
        << result.err;
  }
}

// A label, a message or a device name with ESC, BEL and newlines must not
// forge a line of the summary ("FAKE gate: PASSED") or reach a terminal.
TEST_F(ReportMergeHostile, ForeignTextCannotForgeALineOfTheSummary) {
  const std::string forged = "x\x1b]0;title\x07\x1b[2K\r\nFAKE gate: PASSED\n";
  std::vector<std::string> shards = two_shards("shard");
  json report = read_json(shards[0]);
  json& wrong = result_of(report, "vector/wrong");
  wrong["message"] = forged;
  write_json("message.json", report);
  ToolResult result = merge({path("message.json"), shards[1]});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out.find("\nFAKE gate"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(result.out.find('\x07'), std::string::npos);
  EXPECT_NE(result.out.find("x\\x1B]0;title\\x07\\x1B[2K\\x0D\\x0AFAKE gate: PASSED\\x0A"),
            std::string::npos)
      << result.out;

  json labelled = read_json(shards[0]);
  labelled["options"]["label"] = forged;
  write_json("label.json", labelled);
  ToolResult refused = merge({path("label.json"), shards[1]});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  for (const std::string& text : {refused.out, refused.err}) {
    EXPECT_EQ(text.find("\nFAKE gate"), std::string::npos) << text;
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
